/**
 * undici, loaded on first use. The HTTP stack is a third of the extension's code and most of its
 * load time, and nothing needs it until the first request: esbuild.mjs builds `undiciRuntime.ts` as a
 * separate file (dist/undiciRuntime.js) and this dynamic import loads it then. Tests and the host
 * suites' bundles load the same module from source.
 */
import type * as Undici from 'undici';
import type * as Runtime from './undiciRuntime';

export type UndiciRuntime = typeof Runtime;
export type Dispatcher = Undici.Dispatcher;
export type ResponseData = Undici.Dispatcher.ResponseData;
/** The multipart body type undici accepts (undici's own `FormData`, see undiciRuntime.ts). */
export type FormData = Undici.FormData;

let loading: Promise<UndiciRuntime> | undefined;

export function loadUndici(): Promise<UndiciRuntime> {
  loading ??= Promise.resolve().then(
    // A lazy CommonJS load that esbuild.mjs leaves to run time; `import()` would go through Node's
    // ESM loader instead, which neither the extension host's module hooks nor tsx's CJS hook serve.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    () => require('./undiciRuntime') as UndiciRuntime,
  );
  return loading;
}
