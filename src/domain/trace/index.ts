/** Job trace parsing: styles, carriage returns and sections, fed chunk by chunk. */
export { TraceParser, parseSectionMarker } from './traceParser';
export type { TraceDelta, TraceLine, TraceSection, TraceSpan } from './traceParser';
export { DEFAULT_STYLE, type TraceColor, type TraceStyle } from './traceStyle';
export { findFirstError, plainText, stripAnsi } from './traceText';
export { TracePlainTail } from './traceTail';
export { TraceLineStore } from './traceLineStore';
export { TraceBytes, takeBytes } from './traceBytes';
