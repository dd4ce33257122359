import { randomUUID } from 'node:crypto';
import { PLATFORM_TRAIL } from '../common/api-contract/audit';
import type { AuditHandle, AuditTrail } from '../lib/audit/audit-trail';
import type { CodecKeyRotation } from './codec-key-rotation';

/**
 * Records a rotation in the platform's audit trail before its keys are shown to anyone: who ran it (the name given,
 * as `npm run replay` takes it), when, and which key ids — never a key. Throws AuditUnavailableError when the record
 * cannot be written; the caller then prints nothing, so no key is handed out unrecorded.
 */
export async function recordKeyRotation(trail: AuditTrail, rotation: CodecKeyRotation, operator: string): Promise<AuditHandle> {
  // Every run is its own record: two runs on one day may name the same new id with different keys.
  const requestId = randomUUID();
  const keyIds = Object.keys(JSON.parse(rotation.keysJson) as Record<string, unknown>);
  return trail.begin({
    action: 'codec-key.rotate',
    tenantId: PLATFORM_TRAIL,
    target: rotation.newKeyId,
    actor: { kind: 'operator', id: operator, via: 'cli' },
    requestId,
    idempotencyKey: requestId,
    details: { newKeyId: rotation.newKeyId, retiringKeyId: rotation.retiringKeyId, keyIds: keyIds.join(','), keyCount: keyIds.length },
  });
}
