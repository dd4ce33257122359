import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { createAuditTrail } from '../lib/audit/audit-trail';
import { loadAuditStoreConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { createObjectStore } from '../lib/object-store';
import { recordKeyRotation } from './codec-key-audit';
import { rotateCodecKeys } from './codec-key-rotation';

const USAGE = `npm run codec-key -- rotate [--id <key id>] [--json]

Generates a payload key (32 random bytes) beside the ones in PAYLOAD_CODEC_KEYS and prints the two deploys that
put it in use (docs/security.md#key-rotation). Reads PAYLOAD_CODEC_KEYS and PAYLOAD_CODEC_KEY_ID from the
environment; prints secrets: run it where the deployment's secrets are handled, not in a shared terminal log.
Records the rotation (who, when, key ids; never a key) in the audit trail in the bucket first (S3_* settings, as
the API has them); when that cannot be written it prints no key (docs/security.md#audit-trail).

  --id <key id>        the new key's id (default k<today>, e.g. k2026-12-06)
  --operator <name>    who rotates, for the audit trail (default: your user name)
  --json               {newKeyId, retiringKeyId, keys, auditRecordId} for a script`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { id: { type: 'string' }, operator: { type: 'string', default: userInfo().username }, json: { type: 'boolean' }, help: { type: 'boolean' } },
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
  const log = createLogger('codec-key', 'warn');
  const audit = await recordKeyRotation(createAuditTrail(createObjectStore(loadAuditStoreConfig()), log), rotation, values.operator);
  if (values.json) {
    console.log(
      JSON.stringify({ newKeyId: rotation.newKeyId, retiringKeyId: rotation.retiringKeyId, keys: JSON.parse(rotation.keysJson) as unknown, auditRecordId: audit.recordId }),
    );
    await audit.finish('done');
    return;
  }
  console.log(`New payload key ${rotation.newKeyId}. Two deploys, so that no process meets a payload under a key it lacks:

1. Every process (API, workers, anything that reads histories with the codec) with
   PAYLOAD_CODEC_KEYS='${rotation.keysJson}'
   PAYLOAD_CODEC_KEY_ID=${rotation.retiringKeyId}   (unchanged)

2. Once all of them run step 1:
   PAYLOAD_CODEC_KEY_ID=${rotation.newKeyId}

Keep ${rotation.retiringKeyId} in PAYLOAD_CODEC_KEYS while any history written under it is retained or any job
that read it may still wait (docs/security.md#key-rotation).

Recorded in the audit trail as ${audit.recordId} (GET /admin/audit?tenant=_platform).`);
  await audit.finish('done');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
