/** "3 h 12 min", "45 min", "50 s", "expired": how long a reviewer still has. No DOM, tested in Node. */
export function formatTimeLeft(deadline: string | undefined, now: number): string {
  if (!deadline) return '—';
  const ms = Date.parse(deadline) - now;
  if (Number.isNaN(ms)) return '—';
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.ceil(ms / 1000)} s`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/** A deadline less than an hour away is urgent; the queue marks it. */
export function isUrgent(deadline: string | undefined, now: number): boolean {
  return deadline !== undefined && Date.parse(deadline) - now < 3_600_000;
}

/** "just now", "4 min ago", "2 h ago", "3 d ago". */
export function formatAge(at: string | undefined, now: number): string {
  if (!at) return '—';
  const minutes = Math.floor((now - Date.parse(at)) / 60_000);
  if (Number.isNaN(minutes)) return '—';
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 1440) return `${Math.floor(minutes / 60)} h ago`;
  return `${Math.floor(minutes / 1440)} d ago`;
}

/** Oldest first: the job closest to expiring, then the one submitted earliest. */
export function byOldest<T extends { reviewDeadline?: string; submittedAt?: string; jobId: string }>(a: T, b: T): number {
  const deadline = (job: T) => (job.reviewDeadline ? Date.parse(job.reviewDeadline) : Number.POSITIVE_INFINITY);
  const submitted = (job: T) => (job.submittedAt ? Date.parse(job.submittedAt) : Number.POSITIVE_INFINITY);
  return deadline(a) - deadline(b) || submitted(a) - submitted(b) || a.jobId.localeCompare(b.jobId);
}
