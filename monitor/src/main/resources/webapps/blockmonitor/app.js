// Shared helpers of the block monitor pages: fetch the JSON API, format, escape.
function api(path) {
  return fetch(path).then(r => r.json().then(body => { if (!r.ok) throw new Error(body.error || r.status); return body; }));
}
function esc(s) { return String(s == null ? '' : s).replace(/[&<>"']/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c])); }
function when(ms) { return ms ? new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—'; }
function bytes(n) { const u = ['B','KiB','MiB','GiB','TiB','PiB']; let i = 0; while (Math.abs(n) >= 1024 && i < u.length - 1) { n /= 1024; i++; } return n.toFixed(i ? 1 : 0) + ' ' + u[i]; }
function bar(pct) { return '<span class="bar"><span style="width:' + Math.max(0, Math.min(100, pct)).toFixed(1) + '%"></span></span> ' + pct.toFixed(1) + ' %'; }
function param(name) { return new URLSearchParams(location.search).get(name); }
function nav() {
  document.body.insertAdjacentHTML('afterbegin', '<nav><a href="index.html">Overview</a><a href="health.html">Health</a><a href="block.html">Block</a>'
    + '<a href="datanode.html">DataNode</a><a href="forensics.html">Missing blocks</a><a href="advisor.html">Storage cost</a>'
    + '<a href="/jmx">JMX</a></nav>');
}
function fail(e) { document.getElementById('content').innerHTML = '<p class="warn">' + esc(e.message) + '</p>'; }
function dnLink(id, host) { return '<a href="datanode.html?id=' + encodeURIComponent(id) + '">' + esc(host || id) + '</a>'; }
function blockLink(id) { return '<a href="block.html?id=' + encodeURIComponent(id) + '">blk_' + esc(id) + '</a>'; }
function timeline(spans, from, to) {
  return spans.map(s => {
    const start = Math.max(s.firstSeen, from), end = s.goneSince || to;
    const left = 100 * (start - from) / Math.max(1, to - from), width = Math.max(0.5, 100 * (end - start) / Math.max(1, to - from));
    return '<tr><td>' + dnLink(s.dataNode, s.host) + '</td><td>' + esc(s.rack) + '</td><td>' + esc(s.storageType) + '</td>'
      + '<td><span class="timeline"><span class="' + (s.goneSince ? 'gone' : '') + '" style="left:' + left.toFixed(2) + '%;width:'
      + width.toFixed(2) + '%"></span></span></td><td>' + when(s.firstSeen) + '</td><td>' + (s.goneSince ? when(s.goneSince) : '<span class="ok">present</span>') + '</td></tr>';
  }).join('');
}
