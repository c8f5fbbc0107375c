// ata-validator 1.27.1 lists optional native packages that the registry does not have, which makes
// `npm ci` refuse any lock file that includes it. It is therefore not a devDependency: the bench
// installs it here, pinned, without touching package.json or the lock file.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const ATA = "ata-validator@1.27.1";
const require = createRequire(import.meta.url);
try {
  require.resolve("ata-validator");
} catch {
  console.error(`installing ${ATA} for the bench (npm install --no-save)`);
  try {
    execFileSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", ATA], { stdio: "inherit" });
  } catch {
    console.error(`could not install ${ATA}; the bench runs without it`);
  }
}
