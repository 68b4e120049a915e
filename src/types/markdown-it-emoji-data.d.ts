// The emoji table markdown-it-emoji ships (name -> emoji); its own types cover only the plugins.
declare module 'markdown-it-emoji/lib/data/full.mjs' {
  const emojiByName: Record<string, string>;
  export default emojiByName;
}
