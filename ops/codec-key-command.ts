import { parseArgs } from 'node:util';
import { rotateCodecKeys } from './codec-key-rotation';

const USAGE = `npm run codec-key -- rotate [--id <key id>] [--json]

Generates a payload key (32 random bytes) beside the ones in PAYLOAD_CODEC_KEYS and prints the two deploys that
put it in use (docs/security.md#key-rotation). Reads PAYLOAD_CODEC_KEYS and PAYLOAD_CODEC_KEY_ID from the
environment; prints secrets: run it where the deployment's secrets are handled, not in a shared terminal log.

  --id <key id>   the new key's id (default k<today>, e.g. k2026-12-06)
  --json          {newKeyId, retiringKeyId, keys} for a script`;

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { id: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help || positionals[0] !== 'rotate') {
    console.log(USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const rotation = rotateCodecKeys({
    keysJson: process.env.PAYLOAD_CODEC_KEYS,
    currentKeyId: process.env.PAYLOAD_CODEC_KEY_ID,
    ...(values.id ? { newKeyId: values.id } : {}),
  });
  if (values.json) {
    console.log(JSON.stringify({ newKeyId: rotation.newKeyId, retiringKeyId: rotation.retiringKeyId, keys: JSON.parse(rotation.keysJson) as unknown }));
    return;
  }
  console.log(`New payload key ${rotation.newKeyId}. Two deploys, so that no process meets a payload under a key it lacks:

1. Every process (API, workers, anything that reads histories with the codec) with
   PAYLOAD_CODEC_KEYS='${rotation.keysJson}'
   PAYLOAD_CODEC_KEY_ID=${rotation.retiringKeyId}   (unchanged)

2. Once all of them run step 1:
   PAYLOAD_CODEC_KEY_ID=${rotation.newKeyId}

Keep ${rotation.retiringKeyId} in PAYLOAD_CODEC_KEYS while any history written under it is retained or any job
that read it may still wait (docs/security.md#key-rotation).`);
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
