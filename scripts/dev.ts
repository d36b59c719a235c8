import { spawn, type ChildProcess } from 'node:child_process';

/**
 * `npm run dev`: the API restarts on change (port 3100) and both front ends run on Vite's dev
 * servers with hot reload, proxying /api to it. Same database and demo data as `npm start`.
 */
const children: ChildProcess[] = [];
function run(name: string, cmd: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const prefix = (line: string) => `[${name}] ${line}`;
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) console.log(prefix(line));
    });
  }
  child.on('exit', (code) => {
    console.log(prefix(`terminó (${code})`));
    shutdown(code ?? 1);
  });
  children.push(child);
}

function shutdown(code = 0) {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

run('api', 'npx', ['tsx', 'watch', 'api/src/server.ts'], { PORT: '3100', SKIP_BUILD: '1' });
run('admin', 'npx', ['vite', 'admin', '--port', '5173', '--strictPort']);
run('portal', 'npx', ['vite', 'portal', '--port', '5174', '--strictPort']);
console.log('\nPersonal: http://localhost:5173/   Portal: http://localhost:5174/login_patient   API: http://localhost:3100/api/docs\n');
