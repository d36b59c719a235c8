import fs from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import bcryptjs from 'bcryptjs';
import { DUMMY_PASSWORD_HASH, PASSWORD_THREAD_NICE, PasswordPool, hashPassword, verifyPassword } from './passwords';

/** The demo and benchmark password (seeds/demo.ts), and hashes of it made before issue 22. */
const DEMO_PASSWORD = 'Vigia@2026';
/** bench-a@vigia.test as seeds/large.ts stored it with bcryptjs 3.0.3 on the main thread. */
const SEEDED_HASH = '$2b$10$J.V6a0JsNRZGfIyFB0jxMummo7hC.ruZEIwtz13JoApimyWko2wwO';
/** The same password and salt under the older `$2a$` prefix (bcryptjs 2 and most other libraries wrote it). */
const SEEDED_HASH_2A = '$2a$10$J.V6a0JsNRZGfIyFB0jxMummo7hC.ruZEIwtz13JoApimyWko2wwO';
/** OpenBSD's test vector ("U*U", cost 5), as published with bcrypt. */
const VECTOR_2A = { password: 'U*U', hash: '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW' };

describe('hashPassword', () => {
  it('writes a $2b$ hash at cost 10 that bcryptjs verifies', async () => {
    const hash = await hashPassword(DEMO_PASSWORD);
    expect(hash).toMatch(/^\$2b\$10\$[./A-Za-z0-9]{53}$/);
    expect(bcryptjs.compareSync(DEMO_PASSWORD, hash)).toBe(true);
    expect(bcryptjs.compareSync('Vigia@2027', hash)).toBe(false);
  });

  it('salts each hash', async () => {
    const [a, b] = await Promise.all([hashPassword(DEMO_PASSWORD), hashPassword(DEMO_PASSWORD)]);
    expect(a).not.toBe(b);
  });
});

describe('verifyPassword', () => {
  it.each([
    ['a hash seeded before the change ($2b$)', DEMO_PASSWORD, SEEDED_HASH],
    ['the same under the $2a$ prefix', DEMO_PASSWORD, SEEDED_HASH_2A],
    ["OpenBSD's $2a$ vector at cost 5", VECTOR_2A.password, VECTOR_2A.hash],
    ['a hash bcryptjs makes in this thread', 'Clave@Nueva1', bcryptjs.hashSync('Clave@Nueva1', 10)],
  ])('accepts %s', async (_what, password, hash) => {
    expect(await verifyPassword(password, hash)).toBe(true);
    expect(await verifyPassword(`${password}x`, hash)).toBe(false);
  });

  it('compares the dummy hash of unknown e-mails at the same cost, matching no demo password', async () => {
    expect(DUMMY_PASSWORD_HASH).toMatch(/^\$2b\$10\$/);
    expect(await verifyPassword(DEMO_PASSWORD, DUMMY_PASSWORD_HASH)).toBe(false);
  });
});

describe('PasswordPool', () => {
  const pool = new PasswordPool(1);
  afterAll(() => pool.close());

  it('queues the jobs beyond its threads and answers each', async () => {
    const answers = await Promise.all([
      pool.run({ op: 'compare', password: VECTOR_2A.password, hash: VECTOR_2A.hash }),
      pool.run({ op: 'compare', password: 'U*V', hash: VECTOR_2A.hash }),
      pool.run({ op: 'hash', password: 'x', cost: 4 }),
    ]);
    expect(answers[0]).toBe(true);
    expect(answers[1]).toBe(false);
    expect(answers[2]).toMatch(/^\$2b\$04\$/);
  });

  it('rejects a malformed hash and keeps serving', async () => {
    await expect(pool.run({ op: 'compare', password: 'x', hash: `$9z${'a'.repeat(57)}` })).rejects.toThrow(/Invalid salt version/);
    expect(await pool.run({ op: 'compare', password: VECTOR_2A.password, hash: VECTOR_2A.hash })).toBe(true);
  });

  it.runIf(process.platform === 'linux' && os.getPriority() < PASSWORD_THREAD_NICE)(
    'hashes at a lower priority than the thread that handles requests (Linux)',
    async () => {
      await pool.run({ op: 'hash', password: 'x', cost: 4 });
      // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (the 17th after the name).
      const niceOf = (tid: string) => {
        const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const nices = fs.readdirSync('/proc/self/task').map(niceOf);
      expect(niceOf(String(process.pid))).toBe(os.getPriority());
      expect(nices).toContain(PASSWORD_THREAD_NICE);
    },
  );

  it('refuses what is still queued when closed', async () => {
    const other = new PasswordPool(1);
    const outcomes = Promise.allSettled([
      other.run({ op: 'hash', password: 'x', cost: 4 }),
      other.run({ op: 'hash', password: 'y', cost: 4 }),
    ]);
    await other.close();
    expect((await outcomes).map((o) => o.status === 'rejected' && (o.reason as Error).message)).toEqual([
      'password pool closed',
      'password pool closed',
    ]);
  });
});
