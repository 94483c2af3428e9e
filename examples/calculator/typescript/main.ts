// Serves the calculator hook on stdin and stdout: `node dist/main.js`.
import { hook } from "./calculator.js";

hook.run();
