// Typings for the undici modules imported by path in src/api/http/undici.ts.
declare module 'undici/lib/dispatcher/agent' {
  import { Agent } from 'undici';
  export = Agent;
}
declare module 'undici/lib/dispatcher/proxy-agent' {
  import { ProxyAgent } from 'undici';
  export = ProxyAgent;
}
declare module 'undici/lib/dispatcher/dispatcher' {
  const Dispatcher: { prototype: object };
  export = Dispatcher;
}
declare module 'undici/lib/api' {
  const api: object;
  export = api;
}
declare module 'undici/lib/web/fetch/formdata' {
  import { FormData } from 'undici';
  export { FormData };
}
