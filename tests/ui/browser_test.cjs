// SPDX-License-Identifier: Apache-2.0
//
// `make test-ui`: `starling ui` in a real browser (Debian's chromium, headless, driven by
// puppeteer-core), on a scratch store made with the `starling` command. Every page is visited and
// photographed; search, filters, an edit refused because the file changed on disk, pin, forget and
// restore go through the forms; requests without the token, with a foreign Host, or posting
// without the CSRF token or from another Origin are refused; a memory holding a script shows it as
// text and no dialog opens. Run by tests/ui/run, which installs puppeteer-core.
'use strict';
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const puppeteer = require('puppeteer-core');

function option(name) {
  const at = process.argv.indexOf(name);
  if (at < 0 || at + 1 >= process.argv.length) throw new Error(`browser_test: ${name} is required`);
  return process.argv[at + 1];
}
const starling = option('--starling');
const chromium = option('--chromium');
const screenshots = option('--screenshots');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'starling-ui-test-'));
const project = path.join(scratch, 'project');
fs.mkdirSync(project);
const environment = { ...process.env, HOME: path.join(scratch, 'home'), STARLING_HOME: path.join(scratch, 'store') };
delete environment.BROWSER;

function cli(...words) {
  const result = spawnSync(starling, words, { cwd: project, env: environment, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`starling ${words.join(' ')} failed: ${result.stderr}${result.stdout}`);
  return result.stdout;
}
const memories = () => JSON.parse(cli('list', '--all', '--json'));
const memoryNamed = (summaryPart) => {
  const found = memories().find((memory) => memory.summary.includes(summaryPart));
  assert.ok(found, `a memory whose summary holds "${summaryPart}"`);
  return found;
};

/// The store: a script in a memory, enough memories for two pages, and one recorded session.
function makeStore() {
  const remember = (scope, text) => cli('remember', '--force', '--type', 'reference', '--scope', scope, text);
  remember('user', 'Deploys go through the staging cluster first, with make deploy-staging.');
  remember('user', 'Commit messages are written in English, in the imperative.');
  remember('project', '<script>alert(1)</script> is what the XSS report pasted.');
  remember('project', 'The integration tests need the postgres container running.');
  // A correction that changes the older memory only in part: both kept, linked (amends, amended_by).
  remember('project', 'This project uses Node 18 in CI; Node 18 on the dev boxes too.');
  assert.match(cli('remember', 'Actually, this project uses Node 20 in CI now.'), /changes only part of/);
  // Fifty more, each in words of its own: similar texts would be folded into one memory.
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'su', 'do', 'ga', 'bi', 'fe', 'ho', 'ju'];
  let seed = 7;
  const word = () => [0, 1, 2].map(() => { seed = (seed * 48271) % 2147483647; return syllables[Math.floor(seed / 7) % 16]; }).join('');
  for (let index = 0; index < 50; index += 1) {
    remember('user', `Remember ${Array.from({ length: 7 }, word).join(' ')}.`);
  }
  cli('unpin', memoryNamed('integration tests').id);
  const keys = memories().slice(0, 3).map((memory) => memory.key);
  const sessions = path.join(environment.STARLING_HOME, 'sessions');
  fs.mkdirSync(sessions, { recursive: true, mode: 0o700 });
  // As the hooks write them (core/src/lifecycle/session_log.cpp): a line per prompt, and the state journal.
  const prompts = ['How do we deploy to staging?', 'Write the <b>release</b> notes'].map((message, index) =>
    JSON.stringify({ ts: `2026-11-2${index}T09:00:00Z`, role: 'user', message, cwd: project, agent: 'claude-code' }));
  fs.writeFileSync(path.join(sessions, 'session-one.jsonl'), prompts.join('\n') + '\n', { mode: 0o600 });
  fs.writeFileSync(path.join(sessions, 'session-one.state.jsonl'),
    JSON.stringify({ evaluated: 1 }) + '\n' + JSON.stringify({ injected: keys }) + '\n', { mode: 0o600 });
  // And a real one, through Claude Code's hook binary: its receipts say what each injection gave.
  const hook = (event, fields) => {
    const payload = { session_id: 'session-two', transcript_path: '/t', cwd: project, hook_event_name: event, ...fields };
    const result = spawnSync(path.join(path.dirname(starling), 'starling-claude'), [event],
      { cwd: project, env: environment, encoding: 'utf8', input: JSON.stringify(payload) });
    if (result.status !== 0) throw new Error(`starling-claude ${event} failed: ${result.stderr}`);
  };
  hook('SessionStart', { source: 'startup' });
  hook('UserPromptSubmit', { prompt: 'Which postgres container do the integration tests need?' });
  cli('wait');
}

/// Starts `starling ui` and returns the process and the URL it printed.
function startViewer() {
  const viewer = spawn(starling, ['ui', '--no-browser'], { cwd: project, env: environment });
  let output = '';
  viewer.stderr.on('data', (chunk) => { process.stderr.write(chunk); });
  return new Promise((resolve, reject) => {
    viewer.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})/);
      if (match) resolve({ viewer, url: match[0], port: Number(match[1]), token: match[2], output: () => output });
    });
    viewer.stdout.on('end', () => { viewer.outputSoFar = output; });
    viewer.on('exit', (code) => reject(new Error(`starling ui exited (${code}) before printing its URL: ${output}`)));
  });
}

/// One raw HTTP request, headers as given (the browser would set Host and Origin itself).
function request(port, { method = 'GET', target = '/', headers = {}, body = '' }) {
  return new Promise((resolve, reject) => {
    const sent = http.request({ host: '127.0.0.1', port, method, path: target, headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => { text += chunk; });
        response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: text }));
      });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function checkRefusals(port, token) {
  const host = `127.0.0.1:${port}`;
  const withoutToken = await request(port, { headers: { Host: host } });
  assert.equal(withoutToken.status, 403, 'a request without the token');
  assert.equal(withoutToken.body, 'forbidden\n', 'a refusal says nothing of the store');
  const guessed = await request(port, { target: '/?token=' + '0'.repeat(64), headers: { Host: host } });
  assert.equal(guessed.status, 403, 'a wrong token');

  const opened = await request(port, { target: `/?token=${token}`, headers: { Host: host } });
  assert.equal(opened.status, 303);
  const cookie = opened.headers['set-cookie'][0];
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  const session = cookie.split(';')[0];

  const rebound = await request(port, { headers: { Host: `rebound.example:${port}`, Cookie: session } });
  assert.equal(rebound.status, 403, 'a foreign Host header, even with the cookie');
  const page = await request(port, { target: '/memories', headers: { Host: host, Cookie: session } });
  assert.equal(page.status, 200);
  assert.match(page.headers['content-security-policy'], /default-src 'none'/);
  assert.match(page.headers['content-security-policy'], /frame-ancestors 'none'/);
  assert.equal(page.headers['x-content-type-options'], 'nosniff');

  const target = memoryNamed('Commit messages');
  const memoryPage = await request(port, { target: `/memory?id=${target.id}`, headers: { Host: host, Cookie: session } });
  const csrf = memoryPage.body.match(/name="csrf" value="([0-9a-f]{64})"/)[1];
  const version = memoryPage.body.match(/name="version" value="([0-9a-f]{64})"/)[1];
  const form = `id=${target.id}&version=${version}&pinned=yes`;
  const post = (headers, body) => request(port, { method: 'POST', target: '/memory/pin',
    headers: { Host: host, Cookie: session, 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body });
  assert.equal((await post({ Origin: `http://${host}` }, form)).status, 403, 'a POST without the CSRF token');
  assert.equal((await post({ Origin: 'http://evil.example' }, `${form}&csrf=${csrf}`)).status, 403, 'a POST from another Origin');
  assert.equal((await post({}, `${form}&csrf=${csrf}`)).status, 403, 'a POST without an Origin');
  assert.equal((await request(port, { target: `/memory/pin?${form}&csrf=${csrf}`, headers: { Host: host, Cookie: session } })).status,
    405, 'a change asked by GET');
  assert.equal(memoryNamed('Commit messages').pinned, true, 'remember pinned it; nothing above unpinned or changed it');
  const unpinned = memoryNamed('integration tests');
  const refusedPin = await request(port, { method: 'POST', target: '/memory/pin',
    headers: { Host: host, Cookie: session, 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://evil.example' },
    body: `id=${unpinned.id}&version=x&pinned=yes&csrf=${csrf}` });
  assert.equal(refusedPin.status, 403);
  assert.equal(memoryNamed('integration tests').pinned, false, 'a refused POST changes nothing');
  console.log('ok - refusals: no token, wrong token, foreign Host, POST without CSRF, foreign or no Origin, GET of a form');
}

async function main() {
  fs.rmSync(screenshots, { recursive: true, force: true });
  fs.mkdirSync(screenshots, { recursive: true });
  makeStore();
  const { viewer, url, port, token } = await startViewer();
  let stopped = false;
  const exited = new Promise((resolve) => viewer.on('exit', (code, signal) => { stopped = true; resolve({ code, signal }); }));
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'] });
  try {
    // Bad input gets a clear error naming what was wrong, and a non-zero exit.
    const run = (...words) => spawnSync(starling, ['ui', '--no-browser', ...words], { cwd: project, env: environment, encoding: 'utf8' });
    const taken = run('--port', String(port));
    assert.equal(taken.status, 1, 'a taken port');
    assert.match(taken.stderr, new RegExp(`127\\.0\\.0\\.1:${port}: the port is taken`));
    for (const [words, said] of [[['--port', '0'], /--port must be between 1 and 65535, not '0'/],
      [['--port', 'eighty'], /--port needs a whole number, not 'eighty'/],
      [['--idle-minutes', '0'], /--idle-minutes must be at least 1/]]) {
      const refused = run(...words);
      assert.equal(refused.status, 64, words.join(' '));
      assert.match(refused.stderr, said);
    }
    console.log('ok - a taken port and a bad --port or --idle-minutes are refused, naming them');
    await checkRefusals(port, token);
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    const dialogs = [];
    page.on('dialog', async (dialog) => { dialogs.push(dialog.message()); await dialog.dismiss(); });
    const shoot = (name) => page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
    const heading = () => page.$eval('h1', (element) => element.textContent);
    const go = async (target) => {
      const response = await page.goto(`http://127.0.0.1:${port}${target}`, { waitUntil: 'load' });
      assert.equal(response.status(), 200, target);
    };
    const submit = async (selector) => {
      const [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
      return response;
    };

    // The URL it printed: the token becomes a cookie and leaves the address bar.
    await page.goto(url, { waitUntil: 'load' });
    assert.equal(new URL(page.url()).search, '', 'the token is gone from the address');
    assert.equal(await heading(), 'Overview');
    const total = memories().length;
    assert.ok(total > 50, `enough memories for two pages (${total})`);
    assert.match(await page.$eval('#counts', (element) => element.parentElement.textContent), new RegExp(`${total} memories`));
    assert.ok((await page.$$('svg.chart')).length >= 2, 'the pictures are drawn');
    assert.ok((await page.$eval('#session-start', (element) => element.textContent)).length > 0, 'session start shows the pinned memories');
    // The health report is made beside the pages; a reload shows it once made.
    for (let attempt = 0; attempt < 40 && (await page.$('#health-pending')); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await go('/');
    }
    assert.ok((await page.$$('.finding')).length > 0, 'the health findings, with what to do');
    await shoot('overview');
    console.log('ok - overview: counts, session start, health, pictures');

    await go('/memories');
    assert.match(await page.$eval('#memory-count', (element) => element.textContent), new RegExp(`^${total} of ${total} memories`));
    await shoot('memories');
    await Promise.all([page.waitForNavigation(), page.click('#next-page')]);
    assert.match(await page.content(), /page 2 of 2/);
    await go('/memories');
    await page.type('input[name=q]', 'deploy staging');
    await submit('form.filters button');
    const firstHit = await page.$eval('#memories tr:nth-child(2)', (row) => row.textContent);
    assert.match(firstHit, /Deploys go through the staging cluster/, 'ranked first, as starling search ranks');
    await page.select('select[name=scope]', 'project');
    await submit('form.filters button');
    assert.match(await page.$eval('#memory-count', (element) => element.textContent), new RegExp(`^0 of ${total}`));
    await go('/memories?pinned=no');
    assert.match(await page.$eval('#memory-count', (element) => element.textContent), new RegExp(`^1 of ${total}`));
    await go('/memories?q=deploy');
    await shoot('search');
    console.log('ok - memories: paging, search ranked as starling search, filters');

    // A memory holding a script shows it as text, and no dialog opens.
    const script = memoryNamed('XSS report');
    await go(`/memory?id=${script.id}`);
    assert.match(await page.$eval('#memory-text', (element) => element.textContent), /<script>alert\(1\)<\/script>/);
    await go('/memories?q=alert');
    assert.match(await page.content(), /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.deepEqual(dialogs, [], 'no script of a memory ran');
    console.log('ok - a memory with <script> is shown as text');

    // An edit of a file changed on disk since the page showed it is refused, the change kept.
    const edited = memoryNamed('integration tests');
    await go(`/memory?id=${edited.id}`);
    await shoot('memory');
    const file = JSON.parse(cli('show', '--json', edited.id)).path;
    fs.appendFileSync(file, '\nAdded on disk while the page was open.\n');
    const onDisk = fs.readFileSync(file, 'utf8');
    await page.$eval('input[name=summary]', (input) => { input.value = ''; });
    await page.type('input[name=summary]', 'Integration tests need postgres (edited in the browser)');
    const refused = await submit('#save');
    assert.equal(refused.status(), 409);
    assert.match(await page.$eval('.notice.error', (element) => element.textContent), /changed on disk since this page showed it/);
    assert.equal(fs.readFileSync(file, 'utf8'), onDisk, 'the change on disk is kept');
    await shoot('edit-conflict');
    // The page now shows the file as it is: the same edit on it is saved.
    assert.match(await page.$eval('textarea[name=body]', (element) => element.value), /Added on disk while the page was open/);
    await page.$eval('input[name=summary]', (input) => { input.value = ''; });
    await page.type('input[name=summary]', 'Integration tests need postgres (edited in the browser)');
    const saved = await submit('#save');
    assert.equal(saved.status(), 200);
    assert.match(await page.$eval('.notice.done', (element) => element.textContent), /Saved/);
    const after = JSON.parse(cli('show', '--json', edited.id));
    assert.equal(after.summary, 'Integration tests need postgres (edited in the browser)');
    assert.match(after.body, /Added on disk while the page was open/);
    console.log('ok - edit: refused after a change on disk (kept), saved on the new version');

    await submit('#pin');
    assert.match(await page.$eval('.notice.done', (element) => element.textContent), /Pinned/);
    assert.equal(memoryNamed('Integration tests need postgres').pinned, true);
    await submit('#pin');
    assert.equal(memoryNamed('Integration tests need postgres').pinned, false);
    // Each of them is in the memory's history, by the viewer.
    const events = await page.$eval('#history-events', (element) => element.textContent);
    assert.match(events, /edited by ui/);
    assert.match(events, /changed its summary/);
    assert.match(events, /pinned by ui/);
    assert.match(events, /unpinned by ui/);
    console.log('ok - pin and unpin');

    await submit('#forget');
    assert.equal(await heading(), 'Archive');
    assert.ok(!memories().some((memory) => memory.id === edited.id), 'forgotten: gone from the store');
    const archived = JSON.parse(cli('archive', '--json'));
    assert.equal(archived.length, 1);
    assert.equal(archived[0].reason, 'forgotten in starling ui');
    await shoot('archive');
    await submit('#archive button');
    assert.match(await page.$eval('.notice.done', (element) => element.textContent), /Restored/);
    assert.ok(memories().some((memory) => memory.id === edited.id), 'restored into the store');
    console.log('ok - forget (archived first) and restore');

    await go('/sessions');
    assert.match(await page.content(), /claude-code/);
    await shoot('sessions');
    await go('/session?id=session-one');
    assert.match(await page.$eval('#prompts', (element) => element.textContent), /How do we deploy to staging\?/);
    assert.match(await page.$eval('#prompts', (element) => element.textContent), /Write the <b>release<\/b> notes/);
    assert.equal((await page.$$('#injected li')).length, 3);
    await shoot('session');
    // The real session's receipts: each injection, its memories with their scores and why.
    await go('/session?id=session-two');
    const receipts = await page.$eval('#receipts', (element) => element.textContent);
    assert.match(receipts, /session-start/);
    assert.match(receipts, /standing memory: pinned/);
    // Session start showed every memory the prompt is about already: the prompt's receipt says so.
    assert.match(receipts, /prompt, .*prompt 1.*threshold 0\.28.*Nothing injected/);
    assert.ok((await page.$$('#receipts table.injected a')).length >= 2, 'the injected memories link to their pages');
    await shoot('receipts');
    console.log('ok - sessions, and a session: prompts, the memories injected, and the receipts of a real session');

    // A memory's history: where it came from (remember, at the command line) and what happened since.
    const kept = memoryNamed('staging cluster');
    await go(`/memory?id=${kept.id}`);
    const history = await page.$eval('#history', (element) => element.textContent);
    assert.match(history, /created/);
    assert.match(history, /by cli/);
    await shoot('history');
    console.log('ok - a memory\'s history');

    // A memory a correction changed in part is never shown without it; its links say what they mean.
    const partly = memoryNamed('Node 18 on the dev boxes');
    await go(`/memory?id=${partly.id}`);
    assert.match(await page.$eval('.changed-in-part', (element) => element.textContent),
      /^Changed in part since \(\w{7}, newer\): .*Node 20 in CI/);
    assert.match(await page.content(), /<td>changed in part by \(newer\)<\/td>/);
    await shoot('changed-in-part');
    console.log('ok - a memory changed in part shows what changed it, and its links say what they mean');

    await go('/sharing');
    assert.match(await page.$eval('#sync', (element) => element.textContent), /A sync would carry \d+ memories/);
    await shoot('sharing');
    console.log('ok - sharing');
    assert.deepEqual(dialogs, [], 'no dialog opened on any page');
  } finally {
    await browser.close();
    if (!stopped) viewer.kill('SIGINT');
  }
  const { code } = await exited;
  assert.equal(code, 0, 'starling ui stops cleanly on Ctrl-C');
  fs.rmSync(scratch, { recursive: true, force: true });
  console.log(`ok - starling ui stopped on SIGINT; screenshots in ${screenshots}`);
}

main().catch((failure) => {
  console.error(`not ok - ${failure.stack || failure}`);
  console.error(`scratch store kept in ${scratch}`);
  process.exit(1);
});
