/**
 * A bounded number of slots per tenant for a resource a request holds while it runs (an upload spooled to disk, an
 * event stream polling Temporal), so one tenant cannot take a process's disk or Temporal's attention from the others.
 * Per process: the bound multiplies with the API's replicas, which is what their sizing assumes.
 */
export interface TenantSlots {
  /** A release function, or undefined when the tenant holds every slot. Releasing twice is harmless. */
  tryAcquire(tenantId: string): (() => void) | undefined;
  readonly limit: number;
}

export function tenantSlots(limit: number): TenantSlots {
  const held = new Map<string, number>();
  return {
    limit,
    tryAcquire(tenantId) {
      const count = held.get(tenantId) ?? 0;
      if (count >= limit) return undefined;
      held.set(tenantId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(tenantId) ?? 1) - 1;
        if (left > 0) held.set(tenantId, left);
        else held.delete(tenantId);
      };
    },
  };
}
