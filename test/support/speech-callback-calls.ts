import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../lib/config';
import { createObjectStore } from '../../lib/object-store';
import { type SignedSpeechCallback, speechCallbackSigner } from '../../lib/speech/speech-callback-signer';
import { speechCallbackStore } from '../../lib/speech/speech-callback-store';
import { spokenCall } from './spoken-calls';
import { testEnv } from './test-env';

/**
 * A callback as the stack's API would receive it for a finished transcript of the stack's simulator, whose armed
 * attempt was used already: so a genuine delivery answers 200 (`duplicate`) without a running activity to complete.
 */
export async function usedSpeechCallback(apiUrl: string): Promise<{ callback: SignedSpeechCallback; unarmed: SignedSpeechCallback; transcriptId: string }> {
  const { productEnv, simulatorUrl } = testEnv();
  if (!productEnv || !simulatorUrl) throw new Error('needs the test stack (npm test)');
  const config = loadConfig(productEnv);
  const transcriptId = await finishedSimulatorTranscript(simulatorUrl);
  const signer = speechCallbackSigner(config.speech.callbackSecret);
  const callback = signer.create(apiUrl);
  const store = speechCallbackStore(createObjectStore(config));
  const taskToken = randomBytes(32).toString('base64');
  const armed = { taskToken, tenantId: 'test', jobId: 'openapi-test' };
  await store.arm(callback.id, armed);
  await store.claim(callback.id, armed);
  return { callback, unarmed: signer.create(apiUrl), transcriptId };
}

/** A short spoken call uploaded to the stack's simulator in AssemblyAI's shape, submitted and waited for: its id. */
export async function finishedSimulatorTranscript(simulatorUrl: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'speech-callback-calls-'));
  try {
    const call = await spokenCall(dir, 'call.wav', true);
    const auth = { authorization: 'simulator-key' };
    const upload = (await (await fetch(`${simulatorUrl}/v2/upload`, { method: 'POST', headers: auth, body: call.bytes })).json()) as { upload_url: string };
    const submitted = await fetch(`${simulatorUrl}/v2/transcript`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ audio_url: upload.upload_url }),
    });
    const { id: transcriptId } = (await submitted.json()) as { id: string };
    for (let status = ''; status !== 'completed'; ) {
      status = ((await (await fetch(`${simulatorUrl}/v2/transcript/${transcriptId}`, { headers: auth })).json()) as { status: string }).status;
      if (status === 'error') throw new Error(`the simulator failed transcript ${transcriptId}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return transcriptId;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
