/**
 * Warnings about plugins that kubelet's start-up check lets through but that fail when kubelet
 * executes them at image-pull time, or that are a security problem (kubelet runs them as root).
 */
import type { Finding } from '../model/findings.js';
import type { Check, CheckContext } from './check.js';
import { factFor } from '../credentials/registration.js';

/** Plugins kubelet registered or would look at: every provider in the decoded config whose binary passed kubelet's check. */
function passingPlugins(context: CheckContext) {
  return context.registration.plugins.filter((plugin) => plugin.failure === null);
}

export const notExecutableAtPullCheck: Check = {
  id: 'plugin-not-executable-at-pull',
  title: 'Plugins that only pass the existence check of kubelet <= 1.29',
  appliesTo: (traits) => traits.pluginBinaryCheck === 'stat',
  run(context) {
    return passingPlugins(context).flatMap((plugin): Finding[] => {
      const fact = factFor(context.model.files, plugin.binary);
      if (!fact.exists) return [];
      const problem = fact.type === 'directory' ? 'is a directory' : (fact.mode & 0o111) === 0 ? 'has no execute bit' : fact.noexecMount ? 'is on a noexec mount' : undefined;
      if (!problem) return [];
      return [{
        id: 'plugin-not-executable-at-pull',
        severity: 'warning',
        message: `Credential provider plugin "${plugin.provider}" at ${plugin.binary} ${problem}: this kubelet starts, but every pull that needs it fails, and kubelet 1.30+ will refuse to start.`,
        path: plugin.binary,
        provider: plugin.provider,
        remediation: fact.type === 'directory' ? `Replace the directory ${plugin.binary} with the plugin binary.` : `chmod 0755 ${plugin.binary}`,
      }];
    });
  },
};

export const architectureCheck: Check = {
  id: 'plugin-wrong-architecture',
  title: 'Plugins built for another CPU architecture',
  appliesTo: () => true,
  run(context) {
    const machine = context.model.nodeMachine;
    if (!machine) return [];
    return passingPlugins(context).flatMap((plugin): Finding[] => {
      const fact = factFor(context.model.files, plugin.binary);
      if (!fact.exists || !fact.elf || fact.elf.machine === machine) return [];
      return [{
        id: 'plugin-wrong-architecture',
        severity: 'warning',
        message: `Credential provider plugin "${plugin.provider}" at ${plugin.binary} is built for ${fact.elf.machine} but this node is ${machine}: executing it will fail with "exec format error".`,
        path: plugin.binary,
        provider: plugin.provider,
        remediation: `Install the ${machine} build of the ${plugin.provider} plugin.`,
      }];
    });
  },
};

export const interpreterCheck: Check = {
  id: 'plugin-interpreter-missing',
  title: 'Plugins whose loader or "#!" interpreter is missing',
  appliesTo: () => true,
  run(context) {
    return passingPlugins(context).flatMap((plugin): Finding[] => {
      const fact = factFor(context.model.files, plugin.binary);
      if (!fact.exists) return [];
      const interpreter = fact.elf?.interpreter ?? fact.shebang;
      if (!interpreter || factFor(context.model.files, interpreter).exists) return [];
      const what = fact.elf ? 'ELF interpreter (dynamic loader)' : '"#!" interpreter';
      return [{
        id: 'plugin-interpreter-missing',
        severity: 'warning',
        message: `Credential provider plugin "${plugin.provider}" at ${plugin.binary} needs the ${what} ${interpreter}, which is not on the node: executing it will fail.`,
        path: plugin.binary,
        provider: plugin.provider,
        remediation: `Install a build of ${plugin.provider} for this OS (or a static one), or provide ${interpreter}.`,
      }];
    });
  },
};

export const permissionsCheck: Check = {
  id: 'plugin-insecure-permissions',
  title: 'Plugins and plugin directory writable by non-root users',
  appliesTo: () => true,
  run(context) {
    const findings: Finding[] = [];
    const inspect = (path: string, what: string, provider?: string) => {
      const fact = factFor(context.model.files, path);
      if (!fact.exists) return;
      const problems: string[] = [];
      if (fact.uid !== 0) problems.push(`is owned by uid ${fact.uid}, not root`);
      if (fact.mode & 0o022) problems.push(`is ${fact.mode & 0o002 ? 'world' : 'group'}-writable (mode ${(fact.mode & 0o7777).toString(8).padStart(4, '0')})`);
      if (problems.length === 0) return;
      findings.push({
        id: 'plugin-insecure-permissions',
        severity: 'warning',
        message: `${what} ${path} ${problems.join(' and ')}; kubelet runs credential plugins as root.`,
        path,
        ...(provider ? { provider } : {}),
        remediation: `chown root:root ${path} && chmod go-w ${path}`,
      });
    };
    if (context.flags.binDir) inspect(context.flags.binDir, 'The credential provider plugin directory');
    for (const plugin of passingPlugins(context)) inspect(plugin.binary, `Credential provider plugin "${plugin.provider}" at`, plugin.provider);
    return findings;
  },
};
