// @ts-check
// Restoring a start-up snapshot bigger than the memory Pyodide starts with.
//
// Pyodide restores a snapshot by copying it over the WebAssembly memory its module starts with; that memory is
// defined inside pyodide.asm.wasm (30 MiB), so Pyodide's INITIAL_MEMORY setting is ignored and a snapshot of a
// bigger heap fails with "offset is out of bounds", and a snapshot taken after Python's heap grew is bigger
// (tools/snapshot_pyodide.mjs records the size of each it makes). So while `start()` runs, every module instantiated that exports a
// memory smaller than `bytes` has it grown to `bytes` the moment it exists, before Emscripten takes its views
// of it; the restored heap then finds the size it was saved at. Used by the editor's worker and by the
// snapshot tool, which restores what it made to prove it restorable.

// Room above the restored heap: Python's first allocations after a restore then extend the heap into memory
// that is already there instead of growing it a little at a time while an entrant types (a snapshot leaves
// none; building the converter in the browser used to leave about this much). Untouched pages cost no RAM.
const HEADROOM = 24 * 1024 * 1024;

function grown(result, bytes) {
  const instance = result instanceof WebAssembly.Instance ? result : result?.instance;
  const memory = instance?.exports?.memory;
  if (memory instanceof WebAssembly.Memory && memory.buffer.byteLength < bytes) {
    memory.grow(Math.ceil((bytes + HEADROOM - memory.buffer.byteLength) / 65536));
  }
  return result;
}

// `bytes` may be a promise (the snapshot still on its way): Pyodide has it before it instantiates anything.
//
// `compiled`, when given, is a promise of pyodide.asm.wasm already compiled (WebAssembly.compileStreaming of the
// same address, started while the snapshot was still arriving): Pyodide compiles its module only once it has
// the whole snapshot, so its own compiling would follow the snapshot's inflating instead of running beside it.
// Its own response for the same file is then not read. Should the compiling have failed, Pyodide's own runs.
export async function withMemoryOf(bytes, start, compiled = null) {
  const { instantiate, instantiateStreaming } = WebAssembly;
  WebAssembly.instantiate = async (...args) => grown(await instantiate.apply(WebAssembly, args), await bytes);
  if (instantiateStreaming) {
    WebAssembly.instantiateStreaming = async (source, imports) => {
      const response = await source;
      const module = response?.url?.endsWith("/pyodide.asm.wasm") ? await compiled?.catch(() => null) : null;
      if (module instanceof WebAssembly.Module) {
        response.body?.cancel().catch(() => {});
        const instance = await instantiate.call(WebAssembly, module, imports);
        return grown({ instance, module }, await bytes);
      }
      return grown(await instantiateStreaming.call(WebAssembly, response, imports), await bytes);
    };
  }
  try {
    return await start();
  } finally {
    WebAssembly.instantiate = instantiate;
    if (instantiateStreaming) WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}

// How much memory a (decompressed) Pyodide snapshot restores: all of it after its header, whose length is the
// snapshot's second little-endian 32-bit word (tools/snapshot_scorer.py reads it the same way).
export function snapshotHeapBytes(snapshot) {
  return snapshot.byteLength - new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
}
