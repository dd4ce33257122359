import type { SocketServerMessage, SocketToken } from '../../common/api-contract/job-socket';

/** Past the tenant's caps (the close code the API documents): reconnecting soon would be refused again. */
const TOO_MANY = 4429;
const RECONNECT_MS = 3_000;
const BACKED_OFF_MS = 60_000;
/** A subscription's first read sends each queued job's events at once: one redraw for the burst. */
const COALESCE_MS = 250;

export interface LiveQueue {
  /** Whether the socket is open now; the page polls less while it is. */
  readonly live: boolean;
  stop(): void;
}

/**
 * Follows the tenant's jobs awaiting review over the API's WebSocket and calls `changed` whenever one of them moves
 * (a job arrives, is decided or expires), so the queue redraws at once instead of at the next poll. The socket only
 * says *that* the queue changed; the page reads the queue itself, so a missed message costs freshness, not truth.
 */
export function followQueue(mintToken: () => Promise<SocketToken>, changed: () => void): LiveQueue {
  let socket: WebSocket | undefined;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const announce = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      changed();
    }, COALESCE_MS);
  };
  const state = { live: false };

  const reconnect = (ms: number) => {
    if (!stopped) timer = setTimeout(() => void connect(), ms);
  };

  async function connect(): Promise<void> {
    let url: string;
    try {
      // A token opens one socket: every (re)connection mints its own.
      url = (await mintToken()).url;
    } catch {
      return reconnect(RECONNECT_MS);
    }
    if (stopped) return;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      state.live = true;
      ws.send(JSON.stringify({ type: 'subscribe', subscription: 'queue', filter: { status: 'awaiting_review' } }));
    };
    ws.onmessage = (message: MessageEvent<string>) => {
      const parsed = JSON.parse(message.data) as SocketServerMessage;
      if (parsed.type === 'event') announce();
    };
    ws.onclose = (event) => {
      state.live = false;
      reconnect(event.code === TOO_MANY ? BACKED_OFF_MS : RECONNECT_MS);
    };
  }

  void connect();
  return {
    get live() {
      return state.live;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(pending);
      socket?.close();
    },
  };
}
