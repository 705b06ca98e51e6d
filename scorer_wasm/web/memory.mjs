// @ts-check
// Restoring a start-up snapshot bigger than the memory Pyodide starts with, from the delta it travels as.
//
// Pyodide restores a snapshot by copying it over the WebAssembly memory its module starts with; that memory is
// defined inside pyodide.asm.wasm (30 MiB), so Pyodide's INITIAL_MEMORY setting is ignored and a snapshot of a
// bigger heap fails with "offset is out of bounds", and a snapshot taken after Python's heap grew is bigger
// (tools/snapshot_pyodide.mjs records the size of each it makes). So while `start()` runs, every module instantiated that exports a
// memory smaller than the snapshot's heap has it grown to that the moment it exists, before Emscripten takes
// its views of it; the restored heap then finds the size it was saved at. Used by the editor's worker and by the
// snapshot tool, which restores what it made to prove it restorable.

// Room above the restored heap: Python's first allocations after a restore then extend the heap into memory
// that is already there instead of growing it a little at a time while an entrant types (a snapshot leaves
// none; building the converter in the browser used to leave about this much). Untouched pages cost no RAM.
const HEADROOM = 24 * 1024 * 1024;

const memoryOf = (result) => {
  const instance = result instanceof WebAssembly.Instance ? result : result?.instance;
  const memory = instance?.exports?.memory;
  return memory instanceof WebAssembly.Memory ? memory : null;
};

function grown(result, bytes) {
  const memory = memoryOf(result);
  if (memory && memory.buffer.byteLength < bytes) {
    memory.grow(Math.ceil((bytes + HEADROOM - memory.buffer.byteLength) / 65536));
  }
  return result;
}

// The memory a module starts with, as instantiating it lays it out (its data segments; zeros above them): a copy
// of it up to its last byte that is not zero.
function initialMemory(memory) {
  const words = new Uint32Array(memory.buffer);
  let end = words.length;
  while (end > 0 && words[end - 1] === 0) end -= 1;
  return new Uint8Array(memory.buffer).slice(0, end * 4);
}

// A snapshot travels as a delta: its heap XORed with the memory Pyodide's module starts with (`initial`). Most of
// that memory (the module's data, ~3.8 MB) is still there unchanged when the snapshot is saved, and the
// WebAssembly file carries it already: XORed, those bytes are zeros, which the snapshot's precompressed copy
// then all but leaves out. XOR is its own inverse, so the same call makes the delta from a saved heap
// (tools/snapshot_pyodide.mjs) and the heap from the delta (withMemoryOf, as the module is instantiated), in place.
export function xorInitialMemory(snapshot, initial) {
  const header = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  const length = Math.min(initial.byteLength, snapshot.byteLength - header);
  const at = snapshot.byteOffset + header;
  let done = 0;
  if (at % 4 === 0 && initial.byteOffset % 4 === 0) {
    const words = length >>> 2;
    const heap = new Uint32Array(snapshot.buffer, at, words);
    const start = new Uint32Array(initial.buffer, initial.byteOffset, words);
    for (let i = 0; i < words; i += 1) heap[i] ^= start[i];
    done = words * 4;
  }
  for (let i = done; i < length; i += 1) snapshot[header + i] ^= initial[i];
}

// Runs `start` (which instantiates Pyodide's module) and answers [its result, the memory the first module that
// exports one started with]: what tools/snapshot_pyodide.mjs makes a snapshot's delta against.
export async function withInitialMemory(start) {
  let initial = null;
  const keep = (result) => {
    const memory = memoryOf(result);
    if (memory && !initial) initial = initialMemory(memory);
    return result;
  };
  const result = await whileInstantiating(keep, start);
  return [result, initial];
}

// `start()` with `then(result)` run on every module instantiated meanwhile, as soon as it exists: before
// Emscripten takes its views of its memory or runs anything in it. `compiled`: see withMemoryOf.
async function whileInstantiating(then, start, compiled = null) {
  const { instantiate, instantiateStreaming } = WebAssembly;
  WebAssembly.instantiate = async (...args) => then(await instantiate.apply(WebAssembly, args));
  if (instantiateStreaming) {
    WebAssembly.instantiateStreaming = async (source, imports) => {
      const response = await source;
      const module = response?.url?.endsWith("/pyodide.asm.wasm") ? await compiled?.catch(() => null) : null;
      if (module instanceof WebAssembly.Module) {
        response.body?.cancel().catch(() => {});
        const instance = await instantiate.call(WebAssembly, module, imports);
        return then({ instance, module });
      }
      return then(await instantiateStreaming.call(WebAssembly, response, imports));
    };
  }
  try {
    return await start();
  } finally {
    WebAssembly.instantiate = instantiate;
    if (instantiateStreaming) WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}

// `snapshot` is a promise of the snapshot as it travels (the delta: see xorInitialMemory), which `start` hands
// Pyodide to restore: Pyodide has it before it instantiates anything. As its module is instantiated, the module's
// memory is grown to the snapshot's heap, and the snapshot turned back into the heap, in place, from the memory
// the module started with; once `start` is done it is turned into the delta again, so the caller's bytes are the
// bytes it was given (what the worker keeps on disk and hashes).
//
// `compiled`, when given, is a promise of pyodide.asm.wasm already compiled (WebAssembly.compileStreaming of the
// same address, started while the snapshot was still arriving): Pyodide compiles its module only once it has
// the whole snapshot, so its own compiling would follow the snapshot's arrival instead of running beside it.
// Its own response for the same file is then not read. Should the compiling have failed, Pyodide's own runs.
export async function withMemoryOf(snapshot, start, compiled = null) {
  /** @type {{ undo: (() => void) | null }} */
  const turned = { undo: null };
  const prepare = async (result) => {
    const bytes = await Promise.resolve(snapshot).catch(() => null);
    if (!bytes) return result; // Pyodide reports the failed snapshot itself
    const memory = memoryOf(result);
    if (memory && !turned.undo) {
      const initial = initialMemory(memory);
      xorInitialMemory(bytes, initial);
      turned.undo = () => xorInitialMemory(bytes, initial);
    }
    return grown(result, snapshotHeapBytes(bytes));
  };
  try {
    return await whileInstantiating(prepare, start, compiled);
  } finally {
    turned.undo?.();
  }
}

// How much memory a (decompressed) Pyodide snapshot restores: all of it after its header, whose length is the
// snapshot's second little-endian 32-bit word (tools/snapshot_scorer.py reads it the same way).
export function snapshotHeapBytes(snapshot) {
  return snapshot.byteLength - new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
}
