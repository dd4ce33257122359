/** One Server-Sent Event as the wire format defines it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads a text/event-stream body event by event (comments and `retry:` lines skipped) until the server closes it
 * or the caller stops iterating.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let boundary: number;
      while ((boundary = buffer.search(/\r?\n\r?\n/)) !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
        const event: SseEvent = { event: 'message', data: '' };
        const data: string[] = [];
        for (const line of block.split(/\r?\n/)) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') event.id = value;
          else if (field === 'event') event.event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length === 0) continue;
        event.data = data.join('\n');
        yield event;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
