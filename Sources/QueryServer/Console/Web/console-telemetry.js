'use strict';
// The console's Telemetry tab: the server's requests of the last hour by route (GET telemetry,
// an administration route), as a table (requests, 4xx, 5xx, the share of 5xx, p50 and p99
// latency) and a chart of one minute a bar, drawn here as SVG: no library, no web font, so it
// works offline. The bars stack the requests answered well, the 4xx and the 5xx; a line draws
// the minute's p99 latency against its own scale on the right. The chart shows all routes, or the
// route picked in the table. The numbers are the server's: nothing here counts or estimates.
//
// console.js calls `QueryConsoleTelemetry(host)` once, with what it needs from the page:
// `call(path)` (a GET of an administration route with the administrator token), `element(name,
// attributes, ...children)`, `svgElement(name, attributes, text)` and `failureNodes(failure)`.
// It answers `load()` (asks the server and draws; the tab calls it when shown) and `hidden()`
// (stops refreshing).

window.QueryConsoleTelemetry = (host) => {
  const { call, element, svgElement, failureNodes } = host;
  const $ = (id) => document.getElementById(id);
  const REFRESH_MS = 10000;
  const CHART_HEIGHT = 220;
  const MARGIN = { top: 14, right: 58, bottom: 26, left: 46 };
  /// The last answer, the route the chart shows (null: all routes), and the loads made.
  const telemetry = { report: null, route: null, loads: 0, sequence: 0, timer: null };

  // ---- Numbers as the page writes them.

  function count(value) { return Number(value || 0).toLocaleString('en-US'); }

  function percent(rate) {
    if (!rate) return '0%';
    const value = rate * 100;
    return (value < 0.1 ? '<0.1' : value < 10 ? value.toFixed(1) : value.toFixed(0)) + '%';
  }

  function milliseconds(value) {
    if (value === null || value === undefined) return '–';
    if (value >= 1000) return (value / 1000).toFixed(value >= 10000 ? 0 : 1) + ' s';
    if (value >= 10) return value.toFixed(0) + ' ms';
    // 1.5 ms, 2 ms, 0.35 ms, 0 ms: no trailing zero.
    return String(parseFloat(value.toFixed(value >= 1 ? 1 : 2))) + ' ms';
  }

  /// The UTC time (HH:MM) of the window's minute `index`.
  function minuteLabel(index) {
    const start = Date.parse(telemetry.report.firstMinute) + index * 60000;
    const date = new Date(start);
    return String(date.getUTCHours()).padStart(2, '0') + ':' + String(date.getUTCMinutes()).padStart(2, '0');
  }

  // ---- Loading.

  async function load() {
    const sequence = ++telemetry.sequence;
    const view = $('telemetry-view');
    view.dataset.busy = 'true';
    let answer = null;
    let failure = null;
    try { answer = await call('telemetry'); } catch (error) { failure = error; }
    if (sequence !== telemetry.sequence) return;
    delete view.dataset.busy;
    const box = $('telemetry-error');
    if (failure) {
      box.replaceChildren(...failureNodes(failure));
      box.classList.remove('hidden');
    } else {
      box.classList.add('hidden');
      telemetry.report = answer;
      if (telemetry.route && !answer.routes.some((entry) => entry.route === telemetry.route)) telemetry.route = null;
    }
    render(failure);
    telemetry.loads += 1;
    view.dataset.loads = String(telemetry.loads);
    schedule();
  }

  /// Asks again in 10 s while the box is ticked and the tab shown.
  function schedule() {
    clearTimeout(telemetry.timer);
    telemetry.timer = null;
    if ($('telemetry-auto').checked && !$('telemetry-view').closest('[data-panel]').classList.contains('hidden')) {
      telemetry.timer = setTimeout(load, REFRESH_MS);
    }
  }

  function hidden() {
    clearTimeout(telemetry.timer);
    telemetry.timer = null;
  }

  // ---- Drawing.

  function render(failure) {
    const report = telemetry.report;
    if (!report) {
      $('telemetry-totals').replaceChildren();
      $('telemetry-routes').replaceChildren(element('p', { class: 'empty-state', text: failure
        ? 'The telemetry could not be read: see the message above.' : 'Open this view to read the server’s telemetry.' }));
      drawChart();
      return;
    }
    const last = minuteLabel(report.windowMinutes - 1);
    $('telemetry-scope').textContent = 'This server’s requests from ' + minuteLabel(0) + ' to ' + last + ' UTC, by route; '
      + (report.recording ? 'errors are 5xx, client errors 4xx.' : 'it records no metrics, so nothing is counted.');
    const total = report.total;
    $('telemetry-totals').replaceChildren(...[
      ['Requests', count(total.requests), 'requests'],
      ['Error rate (5xx)', percent(total.errorRate), 'errorRate'],
      ['Client errors (4xx)', percent(total.clientErrorRate), 'clientErrorRate'],
      ['p50 latency', milliseconds(total.p50), 'p50'],
      ['p99 latency', milliseconds(total.p99), 'p99'],
    ].map(([label, value, key]) => element('div', { class: 'telemetry-total', 'data-total': key },
      element('span', { class: 'telemetry-total-label', text: label }), element('span', { class: 'telemetry-total-value', text: value }))));
    renderTable(report);
    drawChart();
  }

  function renderTable(report) {
    const holder = $('telemetry-routes');
    if (report.routes.length === 0) {
      holder.replaceChildren(element('p', { class: 'empty-state', text: 'No request in the last hour.' }));
      return;
    }
    const head = element('tr', null, ...['Route', 'Requests', '4xx', '5xx', 'Error rate', 'p50', 'p99'].map((text, index) =>
      element('th', { scope: 'col', class: index > 0 ? 'number' : null, text })));
    const rows = report.routes.map((entry) => {
      const picked = entry.route === telemetry.route;
      const pick = element('button', { type: 'button', class: 'route-pick', 'aria-pressed': picked ? 'true' : 'false',
        title: 'Show ' + entry.route + ' in the chart', text: entry.route });
      pick.addEventListener('click', () => pickRoute(picked ? null : entry.route));
      return element('tr', { 'data-route': entry.route, class: picked ? 'picked' : null },
        element('th', { scope: 'row', class: 'route' }, pick),
        element('td', { class: 'number', 'data-column': 'requests', text: count(entry.requests) }),
        element('td', { class: 'number', 'data-column': 'clientErrors', text: count(entry.clientErrors) }),
        element('td', { class: 'number' + (entry.serverErrors > 0 ? ' bad' : ''), 'data-column': 'serverErrors', text: count(entry.serverErrors) }),
        element('td', { class: 'number' + (entry.serverErrors > 0 ? ' bad' : ''), 'data-column': 'errorRate', text: percent(entry.errorRate) }),
        element('td', { class: 'number', 'data-column': 'p50', text: milliseconds(entry.p50) }),
        element('td', { class: 'number', 'data-column': 'p99', text: milliseconds(entry.p99) }));
    });
    holder.replaceChildren(element('div', { class: 'table-scroll' }, element('table', { id: 'telemetry-table' },
      element('caption', { class: 'visually-hidden', text: 'Requests of the last hour by route; pick a route to chart it.' }),
      element('thead', null, head), element('tbody', null, ...rows))));
  }

  function pickRoute(route) {
    telemetry.route = route;
    renderTable(telemetry.report);
    drawChart();
    $('telemetry-all').classList.toggle('hidden', route === null);
    // The focus stays on the route's button, or goes to the chart's title once all routes are back.
    const button = route === null ? null : document.querySelector('#telemetry-table tr[data-route="' + CSS.escape(route) + '"] .route-pick');
    (button || $('telemetry-chart-title')).focus();
  }

  /// A scale from 0 to at least `value` in at most four round steps (1, 2 or 5 times a power of
  /// ten; whole steps for counts): `{ top, step }`.
  function scale(value, whole) {
    const wanted = Math.max(value, whole ? 1 : 0.001) / 4;
    const power = 10 ** Math.floor(Math.log10(wanted));
    let step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= wanted) || 10 * power;
    if (whole) step = Math.max(1, Math.round(step));
    return { top: step * Math.max(1, Math.ceil(value / step)), step };
  }

  function drawChart() {
    const svg = $('telemetry-chart');
    const report = telemetry.report;
    const entry = report && (telemetry.route === null ? report.total : report.routes.find((item) => item.route === telemetry.route));
    const name = telemetry.route === null ? 'all routes' : telemetry.route;
    $('telemetry-chart-title').textContent = 'Requests per minute and p99 latency, ' + name;
    const width = Math.max(320, Math.round(svg.getBoundingClientRect().width || svg.parentElement.clientWidth || 640));
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + CHART_HEIGHT);
    svg.setAttribute('height', String(CHART_HEIGHT));
    const nodes = [];
    if (!entry) {
      svg.replaceChildren(svgElement('desc', {}, 'No telemetry to draw.'));
      svg.dataset.bars = '0';
      return;
    }
    const series = entry.series;
    const minutes = series.requests.length;
    const plotWidth = width - MARGIN.left - MARGIN.right;
    const plotHeight = CHART_HEIGHT - MARGIN.top - MARGIN.bottom;
    const slot = plotWidth / minutes;
    const requests = scale(Math.max(...series.requests), true);
    const latencies = series.p99.filter((value) => value !== null);
    const latency = scale(latencies.length > 0 ? Math.max(...latencies) : 1, false);
    const y = (value) => MARGIN.top + plotHeight - (value / requests.top) * plotHeight;
    const yLatency = (value) => MARGIN.top + plotHeight - (value / latency.top) * plotHeight;
    // The scales: requests on the left with a grid line at each step, p99 on the right.
    for (let value = 0; value <= requests.top; value += requests.step) {
      nodes.push(svgElement('line', { class: 'grid', x1: MARGIN.left, x2: width - MARGIN.right, y1: y(value), y2: y(value) }));
      nodes.push(svgElement('text', { class: 'axis', x: MARGIN.left - 6, y: y(value) + 4, 'text-anchor': 'end' }, count(value)));
    }
    for (let index = 0; index * latency.step <= latency.top * 1.0001; index += 1) {
      const value = index * latency.step;
      nodes.push(svgElement('text', { class: 'axis latency-axis', x: width - MARGIN.right + 6, y: yLatency(value) + 4, 'text-anchor': 'start' },
        milliseconds(value)));
    }
    for (const index of [0, 15, 30, 45, minutes - 1]) {
      if (index >= minutes) continue;
      nodes.push(svgElement('text', { class: 'axis', x: MARGIN.left + (index + 0.5) * slot, y: CHART_HEIGHT - 8, 'text-anchor': 'middle' }, minuteLabel(index)));
    }
    // One bar a minute: the requests answered well, then the 4xx, then the 5xx on top.
    let bars = 0;
    const barWidth = Math.max(1, slot - Math.min(3, slot * 0.25));
    for (let index = 0; index < minutes; index += 1) {
      const answered = series.requests[index];
      if (!answered) continue;
      bars += 1;
      const x = MARGIN.left + index * slot + (slot - barWidth) / 2;
      const parts = [['ok', answered - series.clientErrors[index] - series.serverErrors[index]],
        ['client-error', series.clientErrors[index]], ['server-error', series.serverErrors[index]]];
      let base = 0;
      const group = svgElement('g', { class: 'bar', 'data-minute': index });
      for (const [kind, value] of parts) {
        if (value <= 0) continue;
        group.append(svgElement('rect', { class: 'bar-' + kind, x, width: barWidth, y: y(base + value), height: Math.max(1, y(base) - y(base + value)) }));
        base += value;
      }
      group.append(svgElement('title', {}, minuteLabel(index) + ' UTC: ' + count(answered) + ' requests, '
        + count(series.clientErrors[index]) + ' 4xx, ' + count(series.serverErrors[index]) + ' 5xx, p99 ' + milliseconds(series.p99[index])));
      nodes.push(group);
    }
    // The p99 line, broken where a minute had no request.
    let path = '';
    let points = 0;
    series.p99.forEach((value, index) => {
      if (value === null) return;
      const x = (MARGIN.left + (index + 0.5) * slot).toFixed(1);
      path += (index > 0 && series.p99[index - 1] !== null ? ' L' : ' M') + x + ' ' + yLatency(value).toFixed(1);
      points += 1;
    });
    if (path) nodes.push(svgElement('path', { id: 'telemetry-p99-line', class: 'latency-line', d: path.trim() }));
    for (const [index, value] of series.p99.entries()) {
      if (value === null || (series.p99[index - 1] ?? null) !== null || (series.p99[index + 1] ?? null) !== null) continue;
      // A minute alone between empty ones: a dot, as a line needs two points.
      nodes.push(svgElement('circle', { class: 'latency-dot', cx: MARGIN.left + (index + 0.5) * slot, cy: yLatency(value), r: 2.5 }));
    }
    nodes.push(svgElement('line', { class: 'baseline', x1: MARGIN.left, x2: width - MARGIN.right, y1: MARGIN.top + plotHeight, y2: MARGIN.top + plotHeight }));
    const busiest = series.requests.reduce((best, value, index) => value > series.requests[best] ? index : best, 0);
    const described = entry.requests === 0 ? 'No request in the last hour.'
      : count(entry.requests) + ' requests in the hour, at most ' + count(series.requests[busiest]) + ' a minute (' + minuteLabel(busiest) + ' UTC); '
        + count(entry.clientErrors) + ' 4xx, ' + count(entry.serverErrors) + ' 5xx; p99 ' + milliseconds(entry.p99) + '.';
    svg.replaceChildren(svgElement('desc', { id: 'telemetry-chart-desc' }, described), ...nodes);
    svg.dataset.bars = String(bars);
    svg.dataset.points = String(points);
    svg.dataset.route = telemetry.route === null ? '' : telemetry.route;
  }

  $('telemetry-refresh').addEventListener('click', load);
  $('telemetry-all').addEventListener('click', () => pickRoute(null));
  $('telemetry-auto').addEventListener('change', schedule);
  window.addEventListener('resize', () => { if (telemetry.report && $('telemetry-chart').getBoundingClientRect().width > 0) drawChart(); });

  return { load, hidden };
};
