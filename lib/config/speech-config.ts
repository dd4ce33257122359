import { hkdfSync } from 'node:crypto';
import { Secret } from '../secret';
import type { SettingsReader } from '../settings/read-settings';
import type { Deployment, SettingValues } from '../settings/setting';
import { SIMULATOR_URL } from './model-settings';
import { ASSEMBLYAI_URL, DEFAULT_SPEECH_MODELS, OPENAI_URL, type SpeechProvider, type speechArea } from './speech-settings';

type SpeechValues = SettingValues<typeof speechArea.settings>;

export type SpeechConfig = Omit<SpeechValues, 'apiKey' | 'baseURL' | 'model' | 'callbackSecret'> & {
  provider: SpeechProvider;
  apiKey: Secret;
  baseURL: string;
  model: string;
  callbackSecret: Secret;
};

/**
 * No key and no base URL means the local simulator; a real key alone means the chosen provider's service. The
 * callback secret fails closed: in production an AssemblyAI deployment must set its own, elsewhere one is derived
 * from the API's signing secret so workers and API replicas of one stack agree without another setting.
 */
export function speechConfigOf(values: SpeechValues, deployment: Deployment, apiSecret: Secret | undefined, reader: SettingsReader): SpeechConfig {
  const provider = values.provider;
  if (provider === 'assemblyai' && deployment === 'production' && !values.callbackSecret) {
    reader.report('SPEECH_PROVIDER=assemblyai needs SPEECH_CALLBACK_SECRET in production: it signs the callback URLs the provider posts to');
  }
  const derived = apiSecret ? Buffer.from(hkdfSync('sha256', apiSecret.reveal(), '', 'slowlane speech callbacks', 32)).toString('base64url') : '';
  return {
    ...values,
    provider,
    apiKey: values.apiKey ?? new Secret('simulator-key'),
    baseURL: values.baseURL ?? (values.apiKey ? (provider === 'assemblyai' ? ASSEMBLYAI_URL : OPENAI_URL) : SIMULATOR_URL),
    model: values.model ?? DEFAULT_SPEECH_MODELS[provider],
    callbackSecret: values.callbackSecret ?? new Secret(derived),
  };
}
