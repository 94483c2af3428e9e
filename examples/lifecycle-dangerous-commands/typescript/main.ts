// Serves the dangerous-command blocker on stdin and stdout: `node dist/main.js`.
import { dangerousCommands } from "./dangerous.js";

dangerousCommands().run();
