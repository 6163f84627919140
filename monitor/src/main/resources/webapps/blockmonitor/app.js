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
// Charts: Apache ECharts, served by the monitor itself (vendor/echarts). SVG, so that a page's DOM holds what
// was drawn; data-points on each chart's element says how many points it drew (0: nothing recorded yet).
function chart(id, option, points, height) {
  const el = document.getElementById(id);
  el.setAttribute('data-points', points);
  if (!points) { el.innerHTML = '<p class="muted">Nothing recorded yet: the chart fills as polls are recorded.</p>'; el.style.height = 'auto'; return null; }
  if (height) el.style.height = height + 'px';
  const c = echarts.init(el, null, {renderer: 'svg'});
  c.setOption(Object.assign({animation: false, grid: {left: 70, right: 30, top: 40, bottom: 40}, tooltip: {trigger: 'axis'}, legend: {top: 0}}, option));
  return c;
}
function timeSeries(name, rows, column, extra) {
  return Object.assign({name: name, type: 'line', showSymbol: rows.length < 60, data: rows.map(r => [r[0], r[column]])}, extra || {});
}
// The overview's charts: missing and corrupt blocks, blocks by number of racks, rack utilisation (over the last
// `hours`), and replicas per DataNode at the last poll as a heat map of racks by DataNodes.
function overviewCharts(hours) {
  return Promise.all([api('/api/trends?hours=' + hours), api('/api/heatmap')]).then(([t, heat]) => {
    const namespaces = Object.keys(t.polls), one = namespaces.length === 1;
    const label = (what, ns) => one ? what : what + ' (' + ns + ')';
    const count = namespaces.reduce((n, ns) => n + t.polls[ns].length, 0);
    chart('chart-missing', {xAxis: {type: 'time'}, yAxis: {type: 'value', minInterval: 1, name: 'blocks'},
      series: namespaces.flatMap(ns => [timeSeries(label('missing', ns), t.polls[ns], 2, {color: '#b00020'}),
        timeSeries(label('corrupt', ns), t.polls[ns], 3, {color: '#e08600'})])}, count);
    chart('chart-racks', {xAxis: {type: 'time'}, yAxis: {type: 'value', minInterval: 1, name: 'blocks'},
      series: namespaces.flatMap(ns => [['on 1 rack', 4], ['on 2 racks', 5], ['on 3+ racks', 6]].map(([what, col]) =>
        timeSeries(label(what, ns), t.polls[ns], col, {stack: ns, areaStyle: {}})))}, count);
    const racks = Object.keys(t.rackUtilisation);
    chart('chart-fill', {xAxis: {type: 'time'}, yAxis: {type: 'value', name: '% used', min: 0, max: v => Math.min(100, Math.ceil(v.max / 10) * 10 || 10)},
      series: racks.map(r => ({name: r, type: 'line', showSymbol: t.rackUtilisation[r].length < 60, data: t.rackUtilisation[r]}))},
      racks.reduce((n, r) => n + t.rackUtilisation[r].length, 0));
    const rows = heat.racks.map(r => r.rack), width = Math.max(0, ...heat.racks.map(r => r.dataNodes.length));
    const cells = heat.racks.flatMap((r, y) => r.dataNodes.map((d, x) => [x, y, d.replicas, d.host]));
    chart('chart-heatmap', {tooltip: {formatter: p => esc(p.value[3]) + ' (' + esc(rows[p.value[1]]) + '): ' + p.value[2] + ' replicas'},
      grid: {left: 120, right: 30, top: 20, bottom: 80}, legend: {show: false},
      xAxis: {type: 'category', name: 'DataNodes of the rack', nameLocation: 'middle', nameGap: 28, data: Array.from({length: width}, (_, i) => '#' + (i + 1))},
      yAxis: {type: 'category', data: rows},
      visualMap: {dimension: 2, min: 0, max: Math.max(1, ...cells.map(c => c[2])), calculable: true, orient: 'horizontal', left: 'center', bottom: 0},
      series: [{type: 'heatmap', data: cells, label: {show: cells.length <= 200, formatter: p => p.value[2]}}]},
      cells.length, 80 + 36 * rows.length + 60);
  }).catch(e => ['chart-missing', 'chart-racks', 'chart-fill', 'chart-heatmap'].forEach(id =>
    document.getElementById(id).innerHTML = '<p class="warn">Charts unavailable: ' + esc(e.message) + '</p>'));
}
// A block's replicas as bars on a time axis: one row per replica span, grey once gone.
function timelineChart(id, spans, from, to) {
  const rows = spans.map(s => (s.host || s.dataNode) + ' ' + s.storageType);
  const data = spans.map((s, i) => [i, Math.max(s.firstSeen, from), s.goneSince || to, s.goneSince ? 1 : 0]);
  return chart(id, {tooltip: {formatter: p => esc(rows[p.value[0]]) + '<br>' + when(p.value[1]) + ' → ' + (p.value[3] ? when(p.value[2]) : 'now')},
    legend: {show: false}, grid: {left: 240, right: 30, top: 10, bottom: 30},
    xAxis: {type: 'time', min: from, max: to}, yAxis: {type: 'category', data: rows, inverse: true},
    series: [{type: 'custom', encode: {x: [1, 2], y: 0}, data: data, renderItem: (params, api) => {
      const start = api.coord([api.value(1), api.value(0)]), end = api.coord([api.value(2), api.value(0)]);
      const h = api.size([0, 1])[1] * 0.6;
      return {type: 'rect', shape: {x: start[0], y: start[1] - h / 2, width: Math.max(2, end[0] - start[0]), height: h},
        style: {fill: api.value(3) ? '#9aa7b5' : '#3b7dd8'}};
    }}]}, spans.length, 50 + 30 * spans.length);
}
