import type { AuditActor } from '../../common/api-contract/audit';
import type { Caller, Operator } from '../auth';

/** Who a tenant's credential acts as in the audit trail: a reviewer, or the tenant's API key (a program). */
export function actorOfCaller(caller: Caller): AuditActor {
  return { kind: caller.role === 'reviewer' ? 'reviewer' : 'api-key', id: caller.identity, via: caller.via };
}

export function actorOfOperator(operator: Operator): AuditActor {
  return { kind: 'operator', id: operator.id, via: operator.via };
}
