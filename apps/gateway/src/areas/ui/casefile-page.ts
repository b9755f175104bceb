// The casefile verifier page: one self-contained HTML document (inline CSS and JS, no external
// assets). The browser POSTs the chosen .tar.gz to /ui/casefile/verify and shows the verdict.

export const CASEFILE_PAGE_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export const CASEFILE_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Verify a casefile — Agent Exchange</title>
<style>
  :root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --muted: #6e7781; }
  body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
  h1 { font-size: 1.4rem; }
  p.hint { color: var(--muted); }
  label.drop { display: block; border: 2px dashed var(--muted); border-radius: 8px; padding: 1.5rem; text-align: center; cursor: pointer; }
  #verdict { font-size: 2rem; font-weight: 700; margin: 1rem 0 .25rem; }
  #verdict.valid { color: var(--ok); }
  #verdict.invalid { color: var(--bad); }
  #docket { color: var(--muted); font-family: ui-monospace, monospace; }
  table { border-collapse: collapse; width: 100%; margin-top: 1rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #8884; vertical-align: top; }
  td.ref { font-family: ui-monospace, monospace; word-break: break-all; }
  tr.fail td { color: var(--bad); font-weight: 600; }
  #error { color: var(--bad); }
</style>
</head>
<body>
<h1>Verify a casefile</h1>
<p class="hint">Choose a casefile archive (<code>.tar.gz</code>, at most 25 MiB) exported from this exchange. It is checked
against this exchange’s signing key: the docket signature, every entry’s hash and every included payload. To verify
without trusting this server, use <code>npx exchange casefile verify &lt;file.tar.gz&gt; --exchange-key &lt;base64&gt;</code>.</p>
<label class="drop" for="file">Choose a .tar.gz file
  <input id="file" name="file" type="file" accept=".tar.gz,.tgz,application/gzip">
</label>
<div id="verdict" role="status" aria-live="polite"></div>
<div id="docket"></div>
<div id="error"></div>
<table id="checks" hidden>
  <thead><tr><th>check</th><th>result</th><th>reason</th></tr></thead>
  <tbody></tbody>
</table>
<script>
(function () {
  var input = document.getElementById('file');
  var verdict = document.getElementById('verdict');
  var docket = document.getElementById('docket');
  var error = document.getElementById('error');
  var table = document.getElementById('checks');
  var body = table.querySelector('tbody');
  function reset() {
    verdict.textContent = ''; verdict.className = ''; docket.textContent = ''; error.textContent = '';
    body.textContent = ''; table.hidden = true;
  }
  input.addEventListener('change', function () {
    reset();
    var file = input.files && input.files[0];
    if (!file) return;
    verdict.textContent = 'Checking…';
    fetch('/ui/casefile/verify', { method: 'POST', headers: { 'content-type': 'application/gzip' }, body: file })
      .then(function (res) { return res.json().then(function (json) { return { status: res.status, json: json }; }); })
      .then(function (r) {
        if (r.status !== 200) {
          verdict.textContent = 'UNREADABLE';
          verdict.className = 'invalid';
          error.textContent = (r.json && (r.json.code + ': ' + r.json.detail)) || ('HTTP ' + r.status);
          return;
        }
        verdict.textContent = r.json.valid ? 'VALID' : 'INVALID';
        verdict.className = r.json.valid ? 'valid' : 'invalid';
        docket.textContent = 'docket ' + r.json.docket_id;
        r.json.checks.forEach(function (c) {
          var tr = document.createElement('tr');
          tr.className = c.ok ? 'ok' : 'fail';
          [c.ref, c.ok ? 'ok' : 'FAILED', c.reason || ''].forEach(function (text, i) {
            var td = document.createElement('td');
            if (i === 0) td.className = 'ref';
            td.textContent = text;
            tr.appendChild(td);
          });
          body.appendChild(tr);
        });
        table.hidden = false;
      })
      .catch(function (e) { verdict.textContent = 'ERROR'; verdict.className = 'invalid'; error.textContent = String(e); });
  });
})();
</script>
</body>
</html>
`;
