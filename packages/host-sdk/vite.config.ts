import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/**
 * The browser entry as one self-contained ES module, `dist/bundle/lotline-host-sdk.js`, for hosts without a
 * bundler (`<script type="module">` importing it from their own origin) and for the demo core system. It imports
 * nothing outside this package (the window messages are the generated copy in `src/browser/generated/`).
 * `tsc --build` writes the rest of `dist/`, which this build leaves in place.
 */
export default defineConfig({
  build: {
    outDir: "dist/bundle",
    emptyOutDir: false,
    minify: true,
    sourcemap: true,
    lib: {
      entry: fileURLToPath(new URL("./src/browser/index.ts", import.meta.url)),
      formats: ["es"],
      fileName: () => "lotline-host-sdk.js",
    },
  },
});
