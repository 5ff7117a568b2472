// The Emscripten glue of the @cornerstonejs WASM codecs ships without types: a factory that
// instantiates the module (the decoder classes) from options such as wasmBinary.
declare module '@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs' {
  const factory: (options: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
declare module '@cornerstonejs/codec-charls/decodewasmjs' {
  const factory: (options: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
declare module '@cornerstonejs/codec-openjpeg/decodewasmjs' {
  const factory: (options: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
declare module '@cornerstonejs/codec-openjph/wasmjs' {
  const factory: (options: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
