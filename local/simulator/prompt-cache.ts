import { createHash } from 'node:crypto';
import type { Clock } from './clock';
import type { ContentBlock, MessagesRequest } from './messages-request';
import { isMediaBlock, mediaBlockTokens } from './media-blocks';
import { CHARS_PER_TOKEN, countInputTokens, tokensForChars } from './token-count';

export interface PromptCacheSettings {
  cacheTtlMs: number;
  cacheMaxEntries: number;
  cacheMinTokens: number;
}

/** How a request's input tokens split, as the provider reports them in `usage`. */
export interface CacheUsage {
  /** Fresh input: after the last breakpoint, or all of it without caching. */
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

export interface CacheLookup extends CacheUsage {
  /** Prefixes to remember once the request is admitted: each marked one long enough to cache. */
  writes: string[];
  /** The cached prefix this request read, to refresh its lifetime. */
  hit: string | null;
}

interface Breakpoint {
  key: string;
  tokens: number;
}

function withoutCacheControl(value: unknown): string {
  return JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' ? undefined : inner));
}

function marked(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'cache_control' in value;
}

/**
 * The prefixes a request marks with `cache_control`, in the provider's order (tools → system → messages), each
 * with a hash of everything up to it and its length in tokens. tool_choice is part of the message-level keys: the
 * provider's cache is a prefix hierarchy, and a different tool_choice invalidates the message level
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching).
 */
function breakpointsOf(request: MessagesRequest): Breakpoint[] {
  const breakpoints: Breakpoint[] = [];
  const hash = createHash('sha256');
  let chars = 0;
  const add = (piece: unknown, text: number, isMarked: boolean) => {
    hash.update(withoutCacheControl(piece));
    chars += text;
    if (isMarked) breakpoints.push({ key: hash.copy().digest('hex'), tokens: tokensForChars(chars) });
  };
  for (const tool of request.tools ?? []) add(tool, JSON.stringify(tool).length, marked(tool));
  const system = typeof request.system === 'string' ? [{ type: 'text', text: request.system }] : (request.system ?? []);
  for (const block of system) add(block, textLength(block), marked(block));
  hash.update(`tool_choice:${JSON.stringify(request.tool_choice ?? null)}`);
  for (const message of request.messages) {
    const blocks: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    hash.update(`role:${message.role}`);
    for (const block of blocks) add(block, textLength(block), marked(block));
  }
  return breakpoints;
}

function textLength(block: ContentBlock): number {
  // An image or PDF counts by its pixels and pages, as in token-count.ts, not by its base64.
  if (isMediaBlock(block)) return mediaBlockTokens(block) * CHARS_PER_TOKEN;
  return typeof block.text === 'string' ? block.text.length : JSON.stringify(block).length;
}

/**
 * The provider's prompt cache, as far as billing and rate limits see it: a prefix marked with cache_control and at
 * least `cacheMinTokens` long is written on first use (cache_creation_input_tokens) and read by a later request
 * with the same prefix (cache_read_input_tokens) while it lives; each read refreshes its lifetime. Bounded: the
 * least recently used prefix goes first. The split is never more than the request's whole input.
 */
export class PromptCache {
  /** Key → expiry (epoch ms), in least-recently-used order. */
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: () => PromptCacheSettings,
  ) {}

  lookup(request: MessagesRequest): CacheLookup {
    const total = countInputTokens(request);
    const now = this.clock.now();
    const { cacheMinTokens } = this.settings();
    const breakpoints = breakpointsOf(request).filter((point) => point.tokens >= cacheMinTokens);
    let read = 0;
    let hit: string | null = null;
    for (const point of breakpoints) {
      const expiresAt = this.entries.get(point.key);
      if (expiresAt !== undefined && expiresAt > now && point.tokens > read) {
        read = Math.min(total, point.tokens);
        hit = point.key;
      }
    }
    const last = breakpoints.at(-1);
    const creation = last && last.tokens > read ? Math.min(total, last.tokens) - read : 0;
    return {
      inputTokens: total - read - creation,
      cacheCreationInputTokens: creation,
      cacheReadInputTokens: read,
      writes: breakpoints.filter((point) => point.tokens > read).map((point) => point.key),
      hit,
    };
  }

  /** Remembers what an admitted request wrote and refreshes what it read. */
  commit(lookup: CacheLookup): void {
    const { cacheTtlMs, cacheMaxEntries } = this.settings();
    const expiresAt = this.clock.now() + cacheTtlMs;
    for (const key of lookup.hit ? [lookup.hit, ...lookup.writes] : lookup.writes) {
      this.entries.delete(key);
      this.entries.set(key, expiresAt);
    }
    while (this.entries.size > cacheMaxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
