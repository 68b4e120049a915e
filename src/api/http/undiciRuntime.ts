/**
 * The parts of undici the extension uses: the connection pool, the proxy agent, the request API and
 * FormData. Importing them by path keeps undici's fetch, WebSocket, cache and mock modules out of the
 * bundle; undici's own index wires them the same way. Only `undici.ts` loads this module (lazily):
 * esbuild.mjs builds it as its own file, dist/undiciRuntime.js, so activation does not pay for it.
 */
import type * as Undici from 'undici';
import api from 'undici/lib/api';
import Agent from 'undici/lib/dispatcher/agent';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent';
import { FormData as UndiciFormData } from 'undici/lib/web/fetch/formdata';

// What undici's index does, so that `dispatcher.request()` exists.
Object.assign(DispatcherClass.prototype, api);

export { Agent, ProxyAgent };
/**
 * undici's own `FormData`: its dispatcher encodes only instances of this class as
 * `multipart/form-data` (Node's global `FormData` comes from Node's bundled copy of undici).
 */
export const FormData = UndiciFormData;
export type Dispatcher = Undici.Dispatcher;
export type ResponseData = Undici.Dispatcher.ResponseData;
/** The multipart body type undici accepts. */
export type FormData = Undici.FormData;
