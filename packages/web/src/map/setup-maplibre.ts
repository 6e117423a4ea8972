import "maplibre-gl/dist/maplibre-gl.css";
import { setWorkerUrl } from "maplibre-gl";
import workerUrl from "maplibre-gl/dist/maplibre-gl-worker.mjs?url";

// MapLibre looks for its worker beside its own module by default; bundled, that file would not exist. The worker
// is copied to /assets under a hashed name and loaded from the page's origin (CSP `worker-src 'self' blob:`).
setWorkerUrl(workerUrl);
