// Serves the audit log on stdin and stdout: `node dist/main.js`.
import { auditLog } from "./audit.js";

auditLog(process.env["AUDIT_LOG"] ?? "audit.json").run();
