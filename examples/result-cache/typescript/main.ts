// Serves the result cache on stdin and stdout: `node dist/main.js`.
import { resultCache } from "./cache.js";

resultCache((process.env["CACHE_TOOLS"] ?? "read_file").split(",")).run();
