/** Entries the collector writes to the object store together: a segment's activity input stays near 100 KB. */
export const SEGMENT_ENTRIES = 1_000;
