/*
 * The trace page's worker: parses the trace the host sends and keeps it, so that neither the parsing
 * nor the garbage it leaves runs on the page's thread, which also draws the workbench. The page asks
 * for the rows it draws. Built as its own bundle and started from a blob (webviews load workers no
 * other way).
 */
import { TraceRows } from '../../../../domain/trace/traceRows';
import type { TraceWorkerReply, TraceWorkerRequest } from './traceWorkerProtocol';

/** Bytes parsed at a time. */
const PARSE_SLICE_BYTES = 32 * 1024;
/** Parsing time between two looks at the page's requests (rows to draw wait at most this long). */
const PARSE_BATCH_MS = 8;

interface WorkerScope {
  onmessage: ((event: MessageEvent<TraceWorkerRequest>) => void) | null;
  postMessage(message: TraceWorkerReply): void;
}
const scope = globalThis as unknown as WorkerScope;

let model = new TraceRows();
const queue: { bytes: Uint8Array; id: number | undefined }[] = [];
let parsing = false;
/** A way to yield to the page's requests without setTimeout's clamping. */
const next = new MessageChannel();
next.port1.onmessage = parseBatch;

function progress(changedFrom: number, done: number[], withToggles = false): void {
  scope.postMessage({
    type: 'progress',
    rowCount: model.rowCount,
    lineCount: model.lineCount,
    parsedBytes: model.parsedBytes,
    changedFrom,
    done,
    busy: queue.length > 0,
    ...(withToggles ? { toggles: model.toggleList } : {}),
  });
}

function parseBatch(): void {
  const deadline = performance.now() + PARSE_BATCH_MS;
  let changedFrom = Number.MAX_SAFE_INTEGER;
  const done: number[] = [];
  do {
    const piece = queue.shift();
    if (!piece) break;
    changedFrom = Math.min(changedFrom, model.pushBytes(piece.bytes));
    if (piece.id !== undefined) done.push(piece.id);
  } while (performance.now() < deadline);
  progress(Math.min(changedFrom, model.rowCount), done);
  parsing = queue.length > 0;
  if (parsing) next.port2.postMessage(null);
}

/** Feeds in the order they came; one waits while an earlier one inflates. */
let feeds: Promise<void> = Promise.resolve();

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const inflater = new DecompressionStream('gzip');
  const writer = inflater.writable.getWriter();
  // Errors surface from the reader below; these only say the same again.
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = inflater.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunks.push(chunk.value);
    length += chunk.value.length;
  }
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return whole;
}

function receive(request: Extract<TraceWorkerRequest, { type: 'feed' }>): void {
  const { replace, gzip, id } = request;
  // Inflated at once (natively, in parallel with parsing); taken in order.
  const bytes = gzip ? inflate(request.bytes) : Promise.resolve(request.bytes);
  // Its failure is handled in turn, below; not reported as unhandled before then.
  bytes.catch(() => undefined);
  feeds = feeds.then(async () => {
    try {
      feed(await bytes, replace, id);
    } catch (error) {
      scope.postMessage({
        type: 'failed',
        message: `A piece of the trace could not be read: ${String(error)}`,
      });
      feed(new Uint8Array(0), replace, id);
    }
  });
}

function feed(bytes: Uint8Array, replace: boolean, id: number): void {
  if (replace) {
    const dropped = queue.splice(0).flatMap((piece) => (piece.id === undefined ? [] : [piece.id]));
    model.clear();
    progress(0, dropped, true);
  }
  for (let start = 0; start < bytes.length; start += PARSE_SLICE_BYTES) {
    const end = start + PARSE_SLICE_BYTES;
    queue.push({ bytes: bytes.subarray(start, end), id: end >= bytes.length ? id : undefined });
  }
  if (bytes.length === 0) progress(model.rowCount, [id]);
  else if (!parsing) {
    parsing = true;
    next.port2.postMessage(null);
  }
}

function reveal(line: number, seq: number): void {
  if (line < 0) {
    scope.postMessage({ type: 'revealed', seq, line: -1, row: -1 });
    return;
  }
  const { row, changedFrom } = model.reveal(line);
  if (changedFrom < model.rowCount) progress(changedFrom, [], true);
  scope.postMessage({ type: 'revealed', seq, line, row });
}

scope.onmessage = ({ data: request }) => {
  switch (request.type) {
    case 'toggles':
      model = new TraceRows(request.toggles);
      break;
    case 'feed':
      receive(request);
      break;
    case 'rows':
      scope.postMessage({
        type: 'rows',
        first: request.first,
        rows: model.view(request.first, request.last),
      });
      break;
    case 'toggle': {
      const changedFrom = model.toggle(request.line);
      if (changedFrom >= 0) progress(changedFrom, [], true);
      break;
    }
    case 'search': {
      const count = model.search(request.query);
      progress(0, []);
      scope.postMessage({ type: 'searched', seq: request.seq, count });
      break;
    }
    case 'reveal':
      reveal(
        request.target === 'match' ? model.matchLine(request.value) : model.firstErrorLine(),
        request.seq,
      );
      break;
  }
};
