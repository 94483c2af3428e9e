// Serves the weather hook on stdin and stdout: `node dist/main.js`.
import { hook } from "./weather.js";

hook.run();
