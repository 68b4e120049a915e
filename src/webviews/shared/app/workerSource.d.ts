/** `worker:./module`: that module bundled on its own, as code to start a worker from (see esbuild.mjs). */
declare module 'worker:*' {
  const source: string;
  export default source;
}
