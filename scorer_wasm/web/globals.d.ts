// What the editor's scripts use that TypeScript's own DOM and worker declarations lack (type checking only;
// the site never serves this file): the Network Information API, two names the page shares, and the parts of
// the origin private file system Chromium has and the declarations do not yet.

interface NetworkInformation {
  readonly saveData?: boolean;
  readonly effectiveType?: string;
}

interface Navigator {
  readonly connection?: NetworkInformation;
}

interface WorkerNavigator {
  readonly connection?: NetworkInformation;
}

interface Window {
  // The worker early.js started from <head>, with what it has said so far, for editor.js to adopt.
  cvbEarlyWorker?: { worker: Worker; messages: unknown[]; failed: boolean };
  // mkdocs-material's page views (instant navigation).
  document$?: { subscribe(next: () => void): unknown };
}

interface FileSystemFileHandle {
  createSyncAccessHandle(options?: { mode?: "read-only" | "readwrite" | "readwrite-unsafe" }): Promise<FileSystemSyncAccessHandle>;
  move(name: string): Promise<void>;
}

interface FileSystemDirectoryHandle {
  keys(): AsyncIterableIterator<string>;
}
