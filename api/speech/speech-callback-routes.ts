import { type Request, type Response, Router } from 'express';
import { SPEECH_CALLBACK_AUTH_HEADER, SPEECH_CALLBACK_PATH } from '../../lib/speech/speech-callback-signer';
import { receiveSpeechCallback, type SpeechCallbackDeps } from './speech-callbacks';

/** `POST /callbacks/speech/{id}?sig=`: the speech provider's webhook; no tenant credential, the signature instead. */
export function speechCallbackRouter(deps: SpeechCallbackDeps): Router {
  const router = Router();
  router.post(`${SPEECH_CALLBACK_PATH}/:id`, async (req: Request, res: Response) => {
    const sig = typeof req.query.sig === 'string' ? req.query.sig : '';
    const outcome = await receiveSpeechCallback(deps, {
      id: String(req.params.id),
      sig,
      authHeader: req.get(SPEECH_CALLBACK_AUTH_HEADER) ?? '',
      body: req.body as unknown,
    });
    res.status(200).json({ outcome });
  });
  return router;
}
