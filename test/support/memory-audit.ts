import { createAuditTrail } from '../../lib/audit/audit-trail';
import { createLogger } from '../../lib/logger';
import { memoryStore, type MemoryStore } from './memory-store';

/** The audit trail over a map, for tests of the routes that record actions; `store` shows what was written. */
export function memoryAuditTrail(store: MemoryStore = memoryStore()) {
  return Object.assign(createAuditTrail(store, createLogger('test', 'silent')), { store });
}
