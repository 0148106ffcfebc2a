
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = 'http://www.w3.org/2000/svg';
  const settings = document.body.dataset;
  const SYSTEM_SORTS = ['recordName', 'createdTimestamp', 'modifiedTimestamp'];
  const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'LIKE', 'MATCHES', 'BEGINSWITH', 'ENDSWITH', 'CONTAINS', 'BETWEEN',
    'ANY', 'ALL', 'NONE', 'SOME', 'SUBQUERY', 'FUNCTION', 'TERNARY', 'CAST', 'TRUEPREDICATE', 'FALSEPREDICATE',
    'FIRST', 'LAST', 'SIZE', 'UTI-CONFORMS-TO', 'UTI-EQUALS']);
  const LITERALS = new Set(['NULL', 'NIL', 'YES', 'NO', 'TRUE', 'FALSE', 'SELF']);
  const PATTERNS = [
    ['space', /\s+/y],
    ['string', /"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?/y],
    ['number', /0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y],
    ['argument', /%(?:@|K|ll?[dfiuxX]|h?h?[di]|q[di]|[dfiuxXoceEgGs])/y],
    ['variable', /\$[A-Za-z_][A-Za-z0-9_]*/y],
    ['aggregate', /@[A-Za-z_][A-Za-z0-9_]*/y],
    ['word', /UTI-CONFORMS-TO|UTI-EQUALS|#?[A-Za-z_][A-Za-z0-9_]*/iy],
    ['option', /\[[cdnl]+\]/y],
    ['operator', /==|!=|<>|<=|=<|>=|=>|&&|\|\||\*\*|<<|>>|[=<>!+\-*/&|^~]/y],
    ['punct', /[(){}[\],.:]/y],
  ];

  const state = {
    schema: [], type: null, sorts: [], pageSize: 20,
    queryBody: null, markers: [null], pageIndex: 0, nextMarker: null, records: [],
    generation: 0, checkSequence: 0, check: null, tab: 'results', plan: null, planError: null,
  };

  // References as links to their records, and the records that point at one (console-links.js).
  const links = window.QueryConsoleLinks({
    call: (path, body) => call(path, body), element, zoneBody: () => zoneBody(), schema: () => state.schema,
    open: (recordName, recordType, from) => openLinked(recordName, recordType, from),
  });

  // The development schema's administration in the Schema tab (console-administration.js).
  const administration = window.QueryConsoleAdministration({
    call: (path, body) => adminCall(path, body), element, failureNodes, schema: () => state.schema,
    environment: () => $('environment').value, reload: () => loadSchema(), flash: (text) => flash(text),
    keepFocusInside: (panel, event) => keepFocusInside(panel, event),
  });

  // The server's requests of the last hour by route, in the Telemetry tab (console-telemetry.js).
  const telemetryView = window.QueryConsoleTelemetry({
    call: (path) => adminCall(path), element, failureNodes, svgElement: (name, attributes, text) => svgElement(name, attributes, text),
  });

  // The database's subscriptions, listed and deleted in the Subscriptions tab (console-subscriptions.js).
  const subscriptionsView = window.QueryConsoleSubscriptions({
    call: (path, body) => call(path, body), element, failureNodes, flash: (text) => flash(text),
    scope: () => $('environment').value + ' environment’s ' + $('database').value + ' database',
    keepFocusInside: (panel, event) => keepFocusInside(panel, event),
  });

  // Acting as a user: the administrator sees their private and shared databases (console-acting.js).
  const acting = window.QueryConsoleActing({
    adminCall: (path) => adminCall(path), changed: () => sessionChanged(), flash: (text) => flash(text),
  });

  // ---- Calling the server: the same HTTP API as any client.

  class Failure extends Error {
    /// `redirectURL`: where a user signs in, when the server needs one (AUTHENTICATION_REQUIRED).
    constructor(code, reason, redirectURL) { super(reason); this.code = code; this.reason = reason; this.redirectURL = redirectURL || null; }
  }

  /// The routes' prefix for the database picked, or for `database`.
  function basePath(database, environment) {
    // A path segment: what a container name may hold unencoded stays as it is (the server
    // matches the segment as sent).
    const container = $('container').value.trim().replace(/[^A-Za-z0-9._~!$&'()*+,;=:@-]/gu, encodeURIComponent);
    return '/database/1/' + container + '/' + (environment || $('environment').value) + '/' + (database || $('database').value) + '/';
  }

  /// One request: a GET without `body`, else a POST of it as JSON; to the database picked or
  /// `database`. With `admin`, the administrator token (when given) goes as the bearer token; so
  /// it does, with `X-Query-Act-As`, to a private or shared database while acting as a user.
  async function call(path, body, database, retried, admin, environment) {
    const query = [];
    const token = $('api-token').value;
    if (token) query.push('ckAPIToken=' + encodeURIComponent(token));
    // The console's own session: the signed-in user's token, which each answer replaces.
    const sent = webAuthToken();
    if (sent) query.push('ckWebAuthToken=' + encodeURIComponent(sent));
    const url = basePath(database, environment) + path + (query.length > 0 ? '?' + query.join('&') : '');
    // 'same-origin': the page's no-referrer policy would otherwise send `Origin: null`, which a
    // server without credentials refuses; to its own origin the page sends its origin.
    const headers = {};
    const actingAs = admin ? '' : acting.user();
    // Acting as a user reaches their private and shared databases, as the administrator.
    const actsHere = actingAs !== '' && (database || $('database').value) !== 'public';
    if (actsHere) headers['X-Query-Act-As'] = actingAs;
    const adminToken = admin || actsHere ? $('admin-token').value : '';
    if (adminToken) headers.Authorization = 'Bearer ' + adminToken;
    const options = body === undefined ? { method: 'GET', referrerPolicy: 'same-origin', headers }
      : { method: 'POST', referrerPolicy: 'same-origin', headers: { 'Content-Type': 'text/plain', ...headers }, body: JSON.stringify(body) };
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      throw new Failure('NETWORK', 'the server did not answer (' + error.message + ')');
    }
    takeWebAuthToken(sent, response.headers.get('X-Apple-CloudKit-Web-Auth-Token'));
    let json = null;
    try { json = await response.json(); } catch (_) { json = null; }
    if (!response.ok) {
      if (json && json.serverErrorCode === 'AUTHENTICATION_REQUIRED' && sent) {
        // Sent with a token that another answer replaced meanwhile: once more with the new one.
        if (webAuthToken() !== sent && webAuthToken() !== '' && !retried) return call(path, body, database, true, admin, environment);
        // The session ended (expired, revoked, or its token replaced long ago): sign in again.
        if (webAuthToken() === sent) sessionEnded();
      }
      if (json && json.serverErrorCode) throw new Failure(json.serverErrorCode, json.reason || '', json.redirectURL);
      throw new Failure('HTTP ' + response.status, response.statusText);
    }
    return json;
  }

  function element(name, attributes, ...children) {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'text') node.textContent = value; else node.setAttribute(key, value === true ? '' : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function svgElement(name, attributes, text) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /// A failure as the page shows it: its code and reason, and, where the server needs a signed-in
  /// user (AUTHENTICATION_REQUIRED with where to sign in), how to sign in.
  function failureNodes(failure) {
    const nodes = [element('b', { text: failure.code || 'ERROR' }), ' ' + (failure.reason || failure.message || String(failure))];
    if (failure.code === 'AUTHENTICATION_REQUIRED' && failure.redirectURL) nodes.push(signInPrompt());
    return nodes;
  }

  function showRequestError(failure) {
    const box = $('request-error');
    box.replaceChildren(...failureNodes(failure));
    box.classList.remove('hidden');
  }

  function hideRequestError() { $('request-error').classList.add('hidden'); }

  // ---- Signing in: the console's own session, apart from any app's. The signed-in user's web
  // auth token is kept per container in sessionStorage (this tab only, gone when it closes); the
  // server's sign-in page hands it over from a popup, or the user pastes one that
  // `query users token` made. Each answer carries the session's next token.

  const WEB_AUTH_KEY = 'query-console-web-auth:';
  /// Where the tokens are kept when the browser keeps no sessionStorage.
  const unstoredTokens = new Map();
  let signInWindow = null;

  function webAuthKey() { return WEB_AUTH_KEY + $('container').value.trim(); }

  function webAuthToken() {
    try { return sessionStorage.getItem(webAuthKey()) || ''; } catch (_) { return unstoredTokens.get(webAuthKey()) || ''; }
  }

  function keepWebAuthToken(token) {
    try {
      if (token) sessionStorage.setItem(webAuthKey(), token); else sessionStorage.removeItem(webAuthKey());
    } catch (_) {
      if (token) unstoredTokens.set(webAuthKey(), token); else unstoredTokens.delete(webAuthKey());
    }
  }

  /// The next token an answer carries replaces the one the request sent, if that one is still
  /// the current one (an answer to an older token, arriving late, never turns the session back).
  function takeWebAuthToken(sent, next) {
    if (sent && next && next !== sent && webAuthToken() === sent) keepWebAuthToken(next);
  }

  /// The server's sign-in page in a popup: it posts the token back to this page's origin.
  function signIn() {
    const url = settings.signIn + '?container=' + encodeURIComponent($('container').value.trim())
      + '&origin=' + encodeURIComponent(location.origin);
    signInWindow = window.open(url, 'query-console-sign-in', 'popup,width=520,height=680');
  }

  /// A token from the sign-in popup: only from this page's own origin, from the window it opened.
  function receiveSignIn(event) {
    if (event.origin !== location.origin || !signInWindow || event.source !== signInWindow) return;
    const token = event.data && event.data.ckWebAuthToken;
    if (typeof token !== 'string' || token === '') return;
    signInWindow = null;
    startSession(token);
  }

  function startSession(token) {
    keepWebAuthToken(token);
    state.sessionEnded = false;
    sessionChanged();
  }

  function signOut() {
    keepWebAuthToken('');
    state.sessionEnded = false;
    sessionChanged();
  }

  function sessionEnded() {
    keepWebAuthToken('');
    state.sessionEnded = true;
    state.identity = null;
    renderSession();
  }

  function sessionChanged() {
    // What the page showed the previous user is not shown to the next.
    state.records = [];
    state.nextMarker = null;
    state.resultsOf = null;
    renderResults();
    if (detail.mode) closeDetail();
    state.identity = null;
    renderSession();
    loadIdentity();
    loadSchema();
    if (state.tab === 'subscriptions') subscriptionsView.load();
  }

  /// Who the page's requests are: `users/caller` of the public database (on a server without
  /// credentials, its one user, `_defaultOwner`).
  let identitySequence = 0;
  async function loadIdentity() {
    const sequence = ++identitySequence;
    let identity;
    try {
      identity = { user: await call('users/caller', undefined, 'public') };
    } catch (failure) {
      identity = { failure };
    }
    if (sequence !== identitySequence) return;
    state.identity = identity;
    renderSession();
  }

  /// A user's name as the page shows it: the name the server has, else the email address, else the record name.
  function userName(user) {
    const name = user.nameComponents || {};
    const parts = [name.givenName, name.familyName].filter(Boolean);
    if (parts.length > 0) return parts.join(' ');
    return (user.lookupInfo && user.lookupInfo.emailAddress) || user.userRecordName;
  }

  /// The header's session (who is signed in, Sign in, the token box, Sign out) and whose
  /// private database the page shows.
  function renderSession() {
    const tokens = settings.tokenRequired === 'true';
    const signedIn = tokens && webAuthToken() !== '';
    const user = state.identity && state.identity.user;
    $('session').classList.toggle('hidden', !tokens);
    $('sign-in').classList.toggle('hidden', signedIn || !settings.signIn);
    $('web-auth-label').classList.toggle('hidden', signedIn);
    $('sign-out').classList.toggle('hidden', !signedIn);
    let identity = state.sessionEnded ? 'Your session ended: sign in again' : 'Not signed in';
    if (signedIn) {
      const failure = state.identity && state.identity.failure;
      identity = user ? 'Signed in as ' + userName(user) + ' (' + user.userRecordName + ')'
        : failure ? 'Not signed in: ' + failure.code + ' ' + failure.reason : 'Signing in…';
    }
    $('identity').textContent = identity;
    document.body.dataset.user = user && (signedIn || !tokens) ? user.userRecordName : '';
    const owner = $('database-owner');
    const database = $('database').value;
    owner.classList.toggle('hidden', database === 'public');
    const known = user && (signedIn || !tokens);
    owner.textContent = database === 'shared'
      ? (known ? 'Shared with ' + userName(user) + ': the zones other users share' : 'Shared database: sign in to see what is shared with you')
      : (known ? 'Private database of ' + userName(user) : 'Private database: sign in to see yours');
    if (acting.user() !== '') {
      owner.textContent = (database === 'shared' ? 'Shared with ' : 'Private database of ') + acting.name() + ', acting as them';
    }
  }

  /// What an AUTHENTICATION_REQUIRED error adds: a Sign in button, or where to paste a token.
  function signInPrompt() {
    const prompt = element('span', { class: 'sign-in-prompt' }, ' ');
    if (settings.signIn) {
      prompt.append(button('Sign in', { class: 'plain prompt-sign-in' }, signIn), ' to write records and to see your private database.');
    } else {
      prompt.append('Sign in: paste a web auth token (query users token --user NAME) in the header, to write records and to see your private database.');
    }
    return prompt;
  }

  // ---- The schema and the record types.

  async function loadSchema() {
    try {
      const answer = await call('schema');
      state.schema = answer.recordTypes || [];
      hideRequestError();
    } catch (failure) {
      state.schema = [];
      showRequestError(failure);
    }
    await loadProduction();
    renderTypes();
    renderSchema();
    const names = state.schema.map((type) => type.recordType);
    // The first time, the type (and sorts) the address names; then the one picked.
    const wanted = state.wantedType;
    const restored = state.restoredSorts;
    const wantedRecord = state.wantedRecord;
    // What an address names is shown in place of its entry of the history, not as a new one.
    const fromAddress = !!state.addressPending;
    state.wantedType = null;
    state.restoredSorts = null;
    state.wantedRecord = null;
    state.addressPending = false;
    await loadZones();
    loadCounts();
    restoring = fromAddress;
    try {
      showSchemaChoice(names, wanted, restored);
      state.wantedPage = 0;
      if (wantedRecord) openRecord(wantedRecord, null);
    } finally {
      restoring = false;
    }
    document.body.dataset.ready = 'true';
  }

  /// The type the address names (with its sorts) once the schema is known, else the one picked
  /// before, else the first; none in an empty environment.
  function showSchemaChoice(names, wanted, restored) {
    if (wanted && names.includes(wanted)) {
      state.sorts = restored || [];
      selectType(wanted, true);
    } else {
      const chosen = names.includes(state.type) ? state.type : names[0];
      if (chosen) {
        selectType(chosen, state.type === chosen);
      } else {
        // No type here (an empty development environment): nothing of another's stays on screen.
        state.type = null;
        state.records = [];
        state.resultsOf = null;
        state.failed = false;
        renderSorts();
        renderResults();
      }
    }
  }

  /// A zone picker option's value: the zone's name, after its owner's record name and a `/` in a
  /// shared database (neither holds a `/`).
  function zoneKey(zoneName, owner) { return owner ? owner + '/' + zoneName : zoneName; }

  /// The zones of the database, in the zone picker; the default zone when they cannot be listed.
  /// A shared database's zones are other users': grouped by owner (named when the server knows
  /// them), the first picked when the one asked for is not among them.
  async function loadZones() {
    const shared = $('database').value === 'shared';
    let zones = shared ? [] : [{ zoneName: '_defaultZone' }];
    try {
      const answer = await call('zones/list');
      // Only a shared database's zones are told apart by owner (a private one's all have the caller's).
      const listed = (answer.zones || []).map((zone) => zone.zoneID || { zoneName: zone.zoneName }).filter((zoneID) => zoneID.zoneName)
        .map((zoneID) => (shared ? zoneID : { zoneName: zoneID.zoneName }));
      if (listed.length > 0 || shared) zones = listed;
    } catch (_) {
      // The schema's failure is already shown.
    }
    const wanted = zoneKey(state.zone, shared ? state.zoneOwner : null);
    if (!zones.some((zone) => zoneKey(zone.zoneName, zone.ownerRecordName) === wanted)) {
      if (shared && zones.length > 0) {
        state.zone = zones[0].zoneName;
        state.zoneOwner = zones[0].ownerRecordName || null;
      } else if (!shared) {
        zones.push({ zoneName: state.zone });
      }
    }
    if (!shared) state.zoneOwner = null;
    const option = (zone) => {
      const key = zoneKey(zone.zoneName, zone.ownerRecordName);
      return element('option', { value: key, text: zone.zoneName, selected: key === zoneKey(state.zone, state.zoneOwner) });
    };
    if (!shared) {
      $('zone').replaceChildren(...zones.map(option));
      return;
    }
    if (zones.length === 0) {
      $('zone').replaceChildren(element('option', { value: '', text: 'No zone is shared with you', disabled: true, selected: true }));
      return;
    }
    const owners = [...new Set(zones.map((zone) => zone.ownerRecordName))];
    const names = await ownerNames(owners);
    $('zone').replaceChildren(...owners.map((owner) => element('optgroup', { label: 'Shared by ' + (names[owner] || owner) },
      ...zones.filter((zone) => zone.ownerRecordName === owner).map(option))));
  }

  /// The names of users by record name, as `users/lookup/id` answers the discoverable ones
  /// (CloudKit's user dictionaries: `firstName`, `lastName`).
  async function ownerNames(owners) {
    const names = {};
    try {
      const answer = await call('users/lookup/id', { users: owners.map((userRecordName) => ({ userRecordName })) }, 'public');
      for (const user of answer.users || []) {
        const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
        if (name) names[user.userRecordName] = name + ' (' + user.userRecordName + ')';
      }
    } catch (_) {
      // Shown by record name.
    }
    return names;
  }

  // ---- The address: the view in the URL's fragment, so that a reload or a shared link
  // restores it (container, environment, database, type, zone, predicate, sorts, page size, and
  // the page, the tab and the record open), and Back and Forward go through the views shown.

  /// What an address names: each part as its text (null when absent); `page` 1-based.
  function addressView() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    const page = Number(params.get('page'));
    return {
      environment: params.get('environment'), database: params.get('database'), pageSize: params.get('pageSize'),
      predicate: params.get('predicate'), zone: params.get('zone') || '_defaultZone', zoneOwner: params.get('zoneOwner'),
      type: params.get('type'),
      sorts: params.get('sort') ? params.get('sort').split(',').filter(Boolean).map((entry) => {
        const [field, direction] = entry.split(':');
        return { field, ascending: direction !== 'desc' };
      }) : null,
      page: Number.isInteger(page) && page > 1 ? page : 1,
      tab: TABS.includes(params.get('tab')) ? params.get('tab') : 'results',
      record: params.get('record'),
    };
  }

  /// Puts the address's header choices (environment, database, page size, predicate) in place.
  function restoreChoices(view) {
    const setSelect = (id, value) => {
      if (value !== null && [...$(id).options].some((option) => option.value === value)) $(id).value = value;
    };
    // The container is the server's (shown read-only): an address naming another changes nothing.
    setSelect('environment', view.environment);
    setSelect('database', view.database);
    setSelect('page-size', view.pageSize || '20');
    state.pageSize = Number($('page-size').value);
    $('predicate').value = view.predicate || '';
    state.zone = view.zone;
    state.zoneOwner = view.zoneOwner;
  }

  /// The page's first view, from its address: the type and sorts once the schema is known, then
  /// its page and record.
  function restoreFromAddress() {
    const view = addressView();
    restoreChoices(view);
    state.wantedType = view.type;
    state.restoredSorts = view.sorts;
    state.wantedPage = view.page - 1;
    state.wantedRecord = view.record;
    showTab(view.tab, false);
    state.addressPending = true;
  }

  /// Back or Forward: the view of the address, with only what differs from the page's redone
  /// (the query run again, another page loaded, the tab shown, the record opened or closed).
  function restoreView() {
    const view = addressView();
    restoring = true;
    try {
      const place = $('environment').value + '/' + $('database').value;
      restoreChoices(view);
      if ($('environment').value + '/' + $('database').value !== place) {
        // Another environment or database: its schema first, then the rest as on a first load.
        state.wantedType = view.type;
        state.restoredSorts = view.sorts;
        state.wantedPage = view.page - 1;
        state.wantedRecord = view.record;
        state.addressPending = true;
        showTab(view.tab);
        renderSession();
        loadSchema();
        return;
      }
      renderHighlight();
      checkPredicate();
      const type = view.type && state.schema.some((entry) => entry.recordType === view.type) ? view.type : state.type;
      state.sorts = view.sorts || [];
      state.wantedPage = view.page - 1;
      if (type !== state.type) {
        selectType(type, true);
      } else if (JSON.stringify(queryBody()) !== JSON.stringify(state.queryBody)) {
        renderSorts();
        run();
      } else {
        state.wantedPage = 0;
        renderSorts();
        if (view.page - 1 !== state.pageIndex) { state.pageIndex = view.page - 1; loadPage(); }
      }
      showTab(view.tab);
      showAddressRecord(view.record);
    } finally {
      restoring = false;
    }
  }

  /// The record an address names open in the panel (none: the panel closed, unless editing).
  function showAddressRecord(recordName) {
    if (recordName && !(detail.mode && detail.record && detail.record.recordName === recordName)) openRecord(recordName, null);
    else if (!recordName && detail.mode === 'view') closeDetail();
  }

  /// Set while the page shows what an address names: the address is then not written anew as
  /// another entry of the history.
  let restoring = false;

  /// Writes the view to the address: a new entry of the history when it changed, so that Back
  /// returns to the view before; in place with `inPlace` (a page that ended before the one
  /// asked for), for the page's first address, and for a view an address restores.
  function writeAddress(inPlace) {
    const params = new URLSearchParams();
    params.set('container', $('container').value.trim());
    params.set('environment', $('environment').value);
    params.set('database', $('database').value);
    if (state.type) params.set('type', state.type);
    if (state.zone && state.zone !== '_defaultZone') params.set('zone', state.zone);
    if (state.zoneOwner) params.set('zoneOwner', state.zoneOwner);
    const text = $('predicate').value;
    if (text.trim() !== '') params.set('predicate', text);
    if (state.sorts.length > 0) params.set('sort', state.sorts.map((sort) => sort.field + ':' + (sort.ascending ? 'asc' : 'desc')).join(','));
    if (state.pageSize !== 20) params.set('pageSize', String(state.pageSize));
    if (state.pageIndex > 0) params.set('page', String(state.pageIndex + 1));
    if (state.tab !== 'results') params.set('tab', state.tab);
    if (detail.mode && detail.record && detail.record.recordName) params.set('record', detail.record.recordName);
    // Readable: spaces as +, and : , / as they are.
    const encode = (text) => encodeURIComponent(text).replace(/%20/g, '+').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%2F/g, '/');
    const hash = '#' + [...params].map(([key, value]) => key + '=' + encode(value)).join('&');
    if (hash === location.hash) return;
    if (inPlace || restoring || !history.state || !history.state.console) history.replaceState({ console: true }, '', hash);
    else history.pushState({ console: true }, '', hash);
  }

  // ---- Recent queries, kept in the browser (newest first).

  const RECENT_KEY = 'query-console-recent';

  function recentQueries() {
    try {
      const list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]');
      return Array.isArray(list) ? list.filter((entry) => entry && typeof entry.predicate === 'string') : [];
    } catch (_) {
      return [];
    }
  }

  function remember(type, predicate) {
    if (predicate.trim() === '') return;
    const list = recentQueries().filter((entry) => !(entry.type === type && entry.predicate === predicate));
    list.unshift({ type, predicate });
    try { localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 30))); } catch (_) { /* storage full or off */ }
  }

  /// ↑ in an empty box (or on a recalled query): the previous query, of this type first.
  function recall() {
    const list = recentQueries();
    const ordered = list.filter((entry) => entry.type === state.type).concat(list.filter((entry) => entry.type !== state.type));
    const predicates = [...new Set(ordered.map((entry) => entry.predicate))];
    const text = $('predicate').value;
    const index = text === '' ? 0 : predicates.indexOf(text) + 1;
    if (index <= 0 && text !== '') return false;
    if (index >= predicates.length) return false;
    $('predicate').value = predicates[index];
    predicateChanged();
    return true;
  }

  function typeSchema(name) { return state.schema.find((type) => type.recordType === name) || { recordType: name, fields: [] }; }

  function renderTypes() {
    const list = $('record-types');
    // Narrow screens show the same types as a menu above the query.
    $('type-menu').replaceChildren(...state.schema.map((type) => element('option', { value: type.recordType, text: type.recordType,
      selected: type.recordType === state.type })));
    if (state.schema.length === 0) {
      const production = productionHint();
      list.replaceChildren(element('p', { class: 'empty', text: production
        ? 'No record types in development yet. ' + production
        : 'No record types yet: save records with records/modify or query import.' }));
      return;
    }
    list.replaceChildren(...state.schema.map((type) => {
      const button = element('button', { type: 'button', 'data-type': type.recordType, class: type.recordType === state.type ? 'selected' : null },
        element('span', { text: type.recordType }), element('span', { class: 'count' }));
      button.addEventListener('click', () => selectType(type.recordType, false));
      return button;
    }));
    renderCounts();
  }

  /// In development, what production holds (its record types and their records): an empty
  /// development environment says so rather than only "No records". Null elsewhere.
  async function loadProduction() {
    state.production = null;
    if ($('environment').value !== 'development' || $('database').value === 'shared') return;
    let types;
    try {
      const schema = await call('schema', undefined, null, false, false, 'production');
      types = (schema.recordTypes || []).map((type) => type.recordType);
    } catch (_) {
      return;  // No hint.
    }
    const counts = await Promise.all(types.map((recordType) => call('records/count', { query: { recordType } }, null, false, false, 'production')
      .then((answer) => answer.count, () => null)));
    state.production = types.map((recordType, index) => ({ recordType, count: counts[index] }));
  }

  /// The hint about production's records: of every type, or of one (`recordType`); '' when none.
  function productionHint(recordType) {
    if (!state.production || $('environment').value !== 'development') return '';
    const known = state.production.filter((entry) => typeof entry.count === 'number' && entry.count > 0);
    if (recordType) {
      const entry = known.find((candidate) => candidate.recordType === recordType);
      return entry ? 'Production has ' + grouped(entry.count) + ' ' + recordType + (entry.count === 1 ? ' record' : ' records')
        + ': pick production in the header to see them.' : '';
    }
    if (known.length === 0) return '';
    return 'Production has ' + known.length + (known.length === 1 ? ' record type: ' : ' record types: ')
      + known.map((entry) => entry.recordType + ' (' + grouped(entry.count) + (entry.count === 1 ? ' record)' : ' records)')).join(', ')
      + '. Pick production in the header to see them.';
  }

  function selectType(name, keepSorts) {
    if (!keepSorts) state.sorts = [];
    if (state.type !== name) {
      // Another type: its table starts at its first column and row.
      $('results-panel').scrollLeft = 0;
      $('results-panel').scrollTop = 0;
    }
    state.type = name;
    for (const button of $('record-types').querySelectorAll('button')) button.classList.toggle('selected', button.dataset.type === name);
    $('type-menu').value = name;
    renderSorts();
    run();
    checkPredicate();
  }

  function renderSchema() {
    const view = $('schema-view');
    if (state.schema.length === 0) {
      view.replaceChildren(element('p', { class: 'empty-state', text: 'The store has no record types.' }));
      administration.decorate(view);
      return;
    }
    view.replaceChildren(...state.schema.map((type) => element('div', { class: 'card', 'data-type': type.recordType },
      element('h3', {}, element('span', { text: type.recordType }), element('span', { class: 'count', text: type.fields.length + ' fields' })),
      element('table', {},
        element('thead', {}, element('tr', {}, element('th', { text: 'Field' }), element('th', { text: 'Type' }), element('th', { text: 'Indexes' }))),
        element('tbody', {}, ...type.fields.map((field) => {
          // A boolean travels as INT64: both are named.
          const shown = shownType(type.recordType, field.fieldName, field.type);
          return element('tr', { 'data-field': field.fieldName },
            element('td', { text: field.fieldName }),
            element('td', { text: shown === field.type ? shown : shown + ' (' + field.type + ')' }),
            element('td', {}, ...field.indexes.map((index) => element('span', { class: 'flag', text: index }))));
        }))),
      relationshipsTable(type))));
    administration.decorate(view);
  }

  /// How a relationship is stored, as the schema prints it: to-one, to-many (inverse of a field), to-many (a reference list).
  function relationshipKind(relationship) {
    switch (relationship.kind) {
      case 'toOne': return 'to-one';
      case 'toMany': return 'to-many, inverse of ' + relationship.destination + '.' + relationship.inverse;
      case 'referenceList': return 'to-many, reference list';
      default: return relationship.kind;
    }
  }

  /// A type's relationships in the schema view: name, kind, destination and deletion rule.
  function relationshipsTable(type) {
    const relationships = type.relationships || [];
    if (relationships.length === 0) return null;
    const rules = { nullify: 'Nullify', cascade: 'Cascade', deny: 'Deny', noAction: 'No Action' };
    return element('table', { class: 'relationships' },
      element('thead', {}, element('tr', {}, ...['Relationship', 'Kind', 'Destination', 'Delete rule'].map((text) => element('th', { text })))),
      element('tbody', {}, ...relationships.map((relationship) => element('tr', { 'data-relationship': relationship.name },
        element('td', { text: relationship.name }), element('td', { text: relationshipKind(relationship) }),
        element('td', { text: '→ ' + relationship.destination }), element('td', { text: rules[relationship.deletionRule] || relationship.deletionRule })))));
  }

  /// The type a field shows as: its wire type, except BOOLEAN (BOOLEAN_LIST) for a field the
  /// schema declares boolean, which travels as INT64 (a Core Data model's Boolean attribute).
  function shownType(recordType, fieldName, wireType) {
    const field = typeSchema(recordType).fields.find((candidate) => candidate.fieldName === fieldName);
    if (field && field.storeType === 'bool') return 'BOOLEAN';
    if (field && field.storeType === 'list of bool') return 'BOOLEAN_LIST';
    return wireType || (field && field.type) || '';
  }

  // ---- The predicate: highlighting and checking as you type.

  function tokenize(text) {
    const tokens = [];
    let index = 0;
    let previous = null;
    while (index < text.length) {
      let matched = null;
      for (const [kind, pattern] of PATTERNS) {
        if (kind === 'option' && !(previous && (previous.kind === 'keyword' || previous.kind === 'operator'))) continue;
        pattern.lastIndex = index;
        const match = pattern.exec(text);
        if (match && match[0].length > 0) { matched = { kind, text: match[0] }; break; }
      }
      if (!matched) matched = { kind: 'unknown', text: text[index] };
      if (matched.kind === 'word') {
        const upper = matched.text.toUpperCase();
        matched.kind = KEYWORDS.has(upper) ? 'keyword' : LITERALS.has(upper) ? 'literal' : 'key';
      }
      matched.start = index;
      matched.end = index + matched.text.length;
      tokens.push(matched);
      if (matched.kind !== 'space') previous = matched;
      index = matched.end;
    }
    return tokens;
  }

  function renderHighlight() {
    const text = $('predicate').value;
    const check = state.check && state.check.text === text ? state.check : null;
    // The tokens of the error's place underlined: where parsing stopped, the field, the refused keyword.
    const span = check && !check.valid ? errorSpan(text, check.error) : null;
    const pre = $('highlight');
    const nodes = [];
    let marked = false;
    for (const token of tokenize(text)) {
      const cls = token.kind === 'space' ? null : 'tok-' + token.kind;
      if (span && token.kind !== 'space' && token.start >= span.start && token.end <= span.end) {
        nodes.push(element('span', { class: cls + ' tok-error-mark', text: token.text }));
        marked = true;
      } else if (span && !marked && span.start >= token.start && span.start < token.end) {
        // A place between tokens (in a space): its one character underlined.
        const at = span.start;
        nodes.push(document.createTextNode(text.slice(token.start, at)));
        nodes.push(element('span', { class: 'tok-error-mark', text: text[at] }));
        nodes.push(document.createTextNode(text.slice(at + 1, token.end)));
        marked = true;
      } else {
        nodes.push(cls ? element('span', { class: cls, text: token.text }) : document.createTextNode(token.text));
      }
    }
    // Parsing stopped at the end of the input: a mark after it.
    if (span && !marked) nodes.push(element('span', { class: 'tok-error-mark', text: ' ' }));
    // A last line break needs something after it to take its height.
    nodes.push(document.createTextNode(' '));
    pre.replaceChildren(...nodes);
  }

  /// Where a check's error is in the text, as JavaScript string indices `{start, end}`: a syntax
  /// error's whole token where parsing stopped (or that one place, at the end of the input or in
  /// a space); the field a schema error names; the keyword a rule refuses (the first word of its
  /// message: "OR is not supported…"), else the fragment it quotes when the text has it as it is;
  /// null when the text has none of these.
  function errorSpan(text, error) {
    if (!error) return null;
    if (error.kind === 'syntax') {
      const at = error.utf16Offset;
      const token = tokenize(text).find((candidate) => candidate.kind !== 'space' && at >= candidate.start && at < candidate.end);
      return token ? { start: token.start, end: token.end } : { start: at, end: at + 1 };
    }
    if (error.kind === 'rule') {
      const word = String(error.message || '').split(/\s+/)[0].toUpperCase();
      const token = tokenize(text).find((candidate) => candidate.kind !== 'space' && candidate.text.toUpperCase() === word);
      if (token) return { start: token.start, end: token.end };
      const at = error.fragment ? text.indexOf(error.fragment) : -1;
      return at < 0 ? null : { start: at, end: at + error.fragment.length };
    }
    return fieldSpan(text, error);
  }

  /// Where the field a schema error names first appears in the text (as a key, not inside a string).
  function fieldSpan(text, error) {
    if (!error.field || error.kind === 'syntax') return null;
    const token = tokenize(text).find((candidate) => candidate.kind === 'key' && candidate.text === error.field);
    return token ? { start: token.start, end: token.end } : null;
  }

  /// The line of `text` that holds `span`, and under it a caret (^) under each of the span's
  /// characters on that line (one at least): columns in characters, tabs as one space.
  function caretLines(text, span) {
    const lineStart = text.slice(0, span.start).lastIndexOf('\n') + 1;
    const newline = text.indexOf('\n', span.start);
    const lineEnd = newline < 0 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd).replace(/\t/g, ' ');
    const column = Array.from(text.slice(lineStart, span.start)).length;
    const width = Math.max(1, Array.from(text.slice(span.start, Math.min(span.end, lineEnd))).length);
    return line + '\n' + ' '.repeat(column) + '^'.repeat(width);
  }

  let checkTimer = null;
  function predicateChanged() {
    renderStale();
    renderHighlight();
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkPredicate, 120);
  }

  async function checkPredicate() {
    const text = $('predicate').value;
    const sequence = ++state.checkSequence;
    let check;
    if (text.trim() === '') {
      check = { valid: true, empty: true, text };
    } else {
      try {
        // With the record type, the server checks the fields against its schema too.
        const recordType = state.type;
        check = await call('predicates/check', recordType ? { predicate: text, recordType } : { predicate: text });
        check.text = text;
        check.recordType = recordType;
      } catch (failure) {
        if (sequence === state.checkSequence) showRequestError(failure);
        return;
      }
    }
    if (sequence !== state.checkSequence) return;
    state.check = check;
    renderCheck();
    renderHighlight();
  }

  function renderCheck() {
    const box = $('check');
    const check = state.check;
    box.className = check.valid ? 'valid' : 'invalid';
    if (check.empty) {
      box.replaceChildren('No predicate: every record (TRUEPREDICATE).');
    } else if (check.valid) {
      box.replaceChildren('✓ Valid under ' + check.rules + ' rules: ', element('code', { id: 'canonical', text: check.canonical }));
    } else {
      const error = check.error;
      const children = [element('div', { id: 'check-message', text: '✗ ' + error.message })];
      // The caret under the offending token, not at the end of the input.
      const span = errorSpan(check.text, error);
      if (span) children.push(element('pre', { id: 'check-caret', text: caretLines(check.text, span) }));
      for (const suggestion of error.kind === 'field' ? error.suggestions || [] : []) {
        // One click puts the suggested name in place of the unknown one.
        const fix = element('button', { type: 'button', class: 'plain did-you-mean', 'data-suggestion': suggestion, text: 'Use ' + suggestion });
        fix.addEventListener('click', () => replaceField(error.field, suggestion));
        children.push(fix);
      }
      box.replaceChildren(...children);
    }
    box.dataset.checked = check.text;
  }

  /// Replaces each use of a field (as a key) in the predicate by another name.
  function replaceField(field, replacement) {
    const editor = $('predicate');
    const text = editor.value;
    let result = '';
    for (const token of tokenize(text)) result += token.kind === 'key' && token.text === field ? replacement : token.text;
    editor.value = result;
    editor.focus();
    predicateChanged();
  }

  // ---- Sorts.

  function sortableFields() {
    const fields = typeSchema(state.type).fields.filter((field) => field.indexes.includes('sortable')).map((field) => field.fieldName);
    return fields.concat(SYSTEM_SORTS);
  }

  function renderSorts() {
    const fields = sortableFields();
    $('sorts').replaceChildren(...state.sorts.map((sort, index) => {
      const select = element('select', { class: 'sort-field', 'aria-label': 'Sort field ' + (index + 1) },
        ...fields.map((name) => element('option', { value: name, text: name, selected: name === sort.field })));
      select.addEventListener('change', () => { sort.field = select.value; run(); });
      const direction = element('button', { type: 'button', class: 'sort-direction', title: 'Ascending or descending',
        text: sort.ascending ? '↑ asc' : '↓ desc' });
      direction.addEventListener('click', () => { sort.ascending = !sort.ascending; renderSorts(); run(); });
      const remove = element('button', { type: 'button', class: 'sort-remove', title: 'Remove this sort', text: '×' });
      remove.addEventListener('click', () => { state.sorts.splice(index, 1); renderSorts(); run(); });
      return element('span', { class: 'sort' }, select, direction, remove);
    }));
    $('add-sort').disabled = !state.type;
    // Without a sort, the order the server answers in is said.
    $('order-note').textContent = 'Order: by record name, as text (no sort chosen)';
    $('order-note').classList.toggle('hidden', !state.type || state.sorts.length > 0);
  }

  function addSort() {
    const used = new Set(state.sorts.map((sort) => sort.field));
    const field = sortableFields().find((name) => !used.has(name));
    if (!field) return;
    state.sorts.push({ field, ascending: true });
    renderSorts();
    run();
  }

  // ---- Running the query, a page at a time through the continuation marker.

  function queryBody() {
    const query = { recordType: state.type };
    const text = $('predicate').value;
    if (text.trim() !== '') query.predicate = text;
    if (state.sorts.length > 0) {
      query.sortBy = state.sorts.map((sort) => SYSTEM_SORTS.includes(sort.field)
        ? { systemFieldName: sort.field, ascending: sort.ascending } : { fieldName: sort.field, ascending: sort.ascending });
    }
    return { query, resultsLimit: state.pageSize, ...zoneBody() };
  }

  /// Runs the query in the box from its first page (or from the page an address names).
  function run() {
    if (!state.type) return;
    state.queryBody = queryBody();
    state.run = (state.run || 0) + 1;
    document.body.dataset.run = String(state.run);
    state.markers = [null];
    state.pageIndex = state.wantedPage || 0;
    state.wantedPage = 0;
    state.fresh = true;
    writeAddress();
    loadPage();
    loadPlan();
  }

  /// How many records a query body selects (records/count), or null when it cannot be counted
  /// (a shared database's zones are not; a refusal leaves the count unknown).
  async function countOf(body) {
    if ($('database').value === 'shared') return null;
    try {
      const answer = await call('records/count', { query: body.query, ...(body.zoneID ? { zoneID: body.zoneID } : {}) });
      return typeof answer.count === 'number' ? answer.count : null;
    } catch (_) {
      return null;
    }
  }

  /// A count in the user's locale: 34,006.
  function grouped(count) { return Number(count).toLocaleString(); }

  /// Each record type's number of records in the zone picked, in the sidebar.
  let countSequence = 0;
  async function loadCounts() {
    const sequence = ++countSequence;
    const names = state.schema.map((type) => type.recordType);
    delete $('record-types').dataset.counted;
    const counts = await Promise.all(names.map((recordType) => countOf({ query: { recordType }, ...zoneBody() })));
    if (sequence !== countSequence) return;
    state.counts = {};
    names.forEach((name, index) => { state.counts[name] = counts[index]; });
    renderCounts();
    $('record-types').dataset.counted = 'true';
  }

  function renderCounts() {
    for (const button of $('record-types').querySelectorAll('button')) {
      const count = (state.counts || {})[button.dataset.type];
      const label = button.querySelector('.count');
      label.textContent = count === undefined ? '…' : count === null ? '' : grouped(count) + (count === 1 ? ' record' : ' records');
    }
  }

  let pageSequence = 0;
  async function loadPage() {
    const sequence = ++pageSequence;
    // A run's first page comes with its total (records/count), drawn together.
    const fresh = state.fresh;
    const recount = fresh || state.recount;
    state.fresh = false;
    state.recount = false;
    $('next').disabled = true;
    $('previous').disabled = true;
    document.body.dataset.busy = 'true';
    // A slow page shows that it is loading (a quick one does not flicker).
    const loading = setTimeout(() => $('loading').classList.remove('hidden'), 200);
    let records = [];
    let next = null;
    let failure = null;
    let total = state.total;
    try {
      // A page not reached through Next (a jump, or Previous to one) needs its marker first.
      if (state.markers[state.pageIndex] === undefined) state.pageIndex = await walkTo(state.pageIndex, () => sequence === pageSequence);
      const marker = state.markers[state.pageIndex];
      const body = marker ? { continuationMarker: marker, resultsLimit: state.pageSize, ...zoneBody() } : state.queryBody;
      const [answer, counted] = await Promise.all([call('records/query', body), recount ? countOf(state.queryBody) : Promise.resolve(state.total)]);
      records = answer.records || [];
      next = answer.continuationMarker || null;
      total = counted;
    } catch (error) {
      failure = error;
    }
    clearTimeout(loading);
    if (sequence !== pageSequence) return;
    $('loading').classList.add('hidden');
    state.failed = !!failure;
    if (failure) {
      // The check already shows a predicate's error (with its caret): it is not shown twice. The
      // last results that ran stay, marked as stale.
      const text = $('predicate').value;
      const shown = state.check && !state.check.valid && state.check.text === text;
      if (shown) hideRequestError(); else showRequestError(failure);
      state.runError = failure;
      state.failedText = fresh ? (state.queryBody.query.predicate || '') : text;
    } else {
      hideRequestError();
      state.records = records;
      state.nextMarker = next;
      state.total = total;
      state.runError = null;
      state.shown = { page: state.pageIndex, first: state.pageIndex * state.pageSize };
      if (fresh) remember(state.type, state.queryBody.query.predicate || '');
      state.resultsOf = { type: state.type, predicate: state.queryBody.query.predicate || '' };
      // The page a jump reached (the last, past the end) is the one the address keeps.
      writeAddress(true);
    }
    state.generation += 1;
    renderResults();
    if (state.tab === 'map') renderMap();
    delete document.body.dataset.busy;
  }

  function goToPage(delta) {
    if (delta > 0) {
      if (!state.nextMarker) return;
      state.markers[state.pageIndex + 1] = state.nextMarker;
    }
    state.pageIndex = Math.max(0, state.pageIndex + delta);
    writeAddress();
    loadPage();
  }

  /// The number of pages of the query that ran, when its total is known.
  function pageCount() { return typeof state.total === 'number' ? Math.max(1, Math.ceil(state.total / state.pageSize)) : null; }

  /// Straight to page `number` (1-based) of the query that ran, the last one at most.
  function jumpToPage(number) {
    if (!state.queryBody || !Number.isFinite(number)) return;
    const count = pageCount();
    state.pageIndex = Math.max(0, Math.min(Math.floor(number), count === null ? Infinity : count) - 1);
    writeAddress();
    loadPage();
  }

  /// The most records one request answers (the server's resultsLimit at most).
  const MAXIMUM_BATCH = 200;

  /// Finds the continuation marker of page `index`: from the nearest page before it whose marker
  /// is known, through the records between, a batch of whole pages at a time and without their
  /// fields (each page's marker kept on the way, for Previous). Answers the page reached: the
  /// last one when the records end before `index`. Stops when `current()` turns false.
  async function walkTo(index, current) {
    const size = state.pageSize;
    let batch = Math.max(1, Math.floor(MAXIMUM_BATCH / size)) * size;
    let reached = index;
    while (state.markers[reached] === undefined) reached -= 1;
    while (reached < index && current()) {
      const marker = state.markers[reached];
      const limit = Math.min(batch, (index - reached) * size);
      const from = marker ? { continuationMarker: marker, ...zoneBody() } : state.queryBody;
      const answer = await call('records/query', { ...from, resultsLimit: limit, desiredKeys: [] });
      if (!answer.continuationMarker) {
        // The records end within this batch: its pages one at a time, to the last.
        if (limit === size) break;
        batch = size;
        continue;
      }
      reached += limit / size;
      state.markers[reached] = answer.continuationMarker;
    }
    return reached;
  }

  /// A click on a column's header: it becomes the first sort, ascending, or changes direction
  /// when it already is.
  function sortByColumn(field) {
    const current = state.sorts.find((sort) => sort.field === field);
    const ascending = current && state.sorts[0] === current ? !current.ascending : true;
    state.sorts = [{ field, ascending }, ...state.sorts.filter((sort) => sort.field !== field)];
    renderSorts();
    run();
  }

  /// Keeps the first columns (#, recordName, name) in view while the table scrolls sideways.
  function stickColumns(table, count) {
    const widths = [...table.tHead.rows[0].cells].slice(0, count).map((cell) => cell.getBoundingClientRect().width);
    for (const row of table.rows) {
      let left = 0;
      for (let index = 0; index < count; index += 1) {
        const cell = row.cells[index];
        cell.classList.add('sticky-column');
        cell.style.left = left + 'px';
        left += widths[index];
      }
    }
  }

  /// Keys on a row: Enter opens it, the arrows (and Home, End) move to another.
  function rowKey(event) {
    const row = event.target.closest('tbody tr');
    if (!row) return;
    const rows = [...row.parentElement.children];
    let index = rows.indexOf(row);
    switch (event.key) {
      case 'Enter': case ' ': event.preventDefault(); openRecord(row.dataset.recordName, row); return;
      case 'ArrowDown': index = Math.min(rows.length - 1, index + 1); break;
      case 'ArrowUp': index = Math.max(0, index - 1); break;
      case 'Home': index = 0; break;
      case 'End': index = rows.length - 1; break;
      default: return;
    }
    event.preventDefault();
    for (const other of rows) other.tabIndex = -1;
    rows[index].tabIndex = 0;
    rows[index].focus();
  }

  function formatScalar(value, type) {
    if (value === null || value === undefined) return '';
    switch (type) {
      case 'TIMESTAMP': return new Date(Number(value)).toLocaleString();
      case 'LOCATION': return value.latitude + ', ' + value.longitude;
      case 'REFERENCE': return '→ ' + (value.recordName || '');
      case 'BOOLEAN': return Number(value) ? 'true' : 'false';
      case 'BYTES': return Math.floor(String(value).length * 3 / 4) + ' bytes';
      case 'INT64': case 'DOUBLE': return formatNumber(value);
      default: return typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
  }

  /// A number in the user's locale (thousands separators), with every digit it has.
  function formatNumber(value) {
    const number = Number(value);
    const plain = String(value);
    if (!Number.isFinite(number) || /e/i.test(plain)) return plain;
    const digits = (plain.split('.')[1] || '').length;
    return number.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }

  /// A value as one line of text; `shown`, the type it shows as when not its own (BOOLEAN).
  function formatField(field, shown) {
    if (!field || field.value === null || field.value === undefined) return null;
    const type = shown && shown.startsWith('BOOLEAN') ? shown : field.type || '';
    if (Array.isArray(field.value)) return field.value.map((member) => formatScalar(member, type.replace(/_LIST$/, ''))).join(', ');
    return formatScalar(field.value, type);
  }

  function columns() {
    const fields = typeSchema(state.type).fields.map((field) => ({ name: field.fieldName, type: shownType(state.type, field.fieldName, field.type) }));
    // A name or title says what a row is: it comes first, then the others in the schema's order,
    // lists (often long) last. A sort moves no column: the next click on a header sorts by it.
    const rank = (field) => ['name', 'title'].includes(field.name) ? 0 : field.type.endsWith('_LIST') ? 1000 : 100;
    fields.sort((a, b) => rank(a) - rank(b));
    const known = new Set(fields.map((field) => field.name));
    for (const record of state.records) {
      for (const [name, field] of Object.entries(record.fields || {})) {
        if (!known.has(name)) { known.add(name); fields.push({ name, type: field.type || '' }); }
      }
    }
    return fields;
  }

  function renderResults() {
    // After a failed run, the rows of the last run that worked keep their page and numbers.
    const kept = state.failed && state.shown ? state.shown : null;
    const pageIndex = kept ? kept.page : state.pageIndex;
    const first = kept ? kept.first : state.pageIndex * state.pageSize;
    const count = state.records.length;
    const results = $('results');
    results.dataset.generation = String(state.generation);
    if (!state.type) {
      results.replaceChildren(element('p', { class: 'empty-state', text: productionHint() || 'No record types.' }));
    } else if (state.failed && (!state.resultsOf || state.resultsOf.type !== state.type)) {
      results.replaceChildren(element('p', { class: 'empty-state', text: 'The query failed: see the message above.' }));
    } else if (count === 0) {
      // An empty development environment says what production has.
      const hint = $('predicate').value.trim() === '' && state.pageIndex === 0 ? productionHint(state.type) : '';
      results.replaceChildren(element('p', { class: 'empty-state', text: hint ? 'No records in development. ' + hint : 'No records match.' }));
    } else {
      const fields = columns();
      const sortable = new Set(sortableFields());
      const header = (name, attributes, ...children) => {
        // A sortable column sorts by a click (or Enter) on its header; the sort it is in is marked.
        const sort = state.sorts.find((candidate) => candidate.field === name);
        const canSort = sortable.has(name);
        return element('th', { ...attributes, 'data-sort-field': canSort ? name : null, class: canSort ? 'sortable' : null, tabindex: canSort ? '0' : null,
          'aria-sort': sort ? (sort.ascending ? 'ascending' : 'descending') : null },
          name, ...children, sort ? element('span', { class: 'sort-mark', text: sort.ascending ? ' ▲' : ' ▼' }) : null);
      };
      const head = element('tr', {}, element('th', { text: '#' }), header('recordName', {}),
        ...fields.map((field) => header(field.name, { title: field.type }, element('span', { class: 'type', text: field.type.replace('_LIST', '[]') }))));
      const rows = state.records.map((record, index) => element('tr', { 'data-record-name': record.recordName, tabindex: index === 0 ? '0' : '-1' },
        element('td', { class: 'row-number', text: String(first + index + 1) }),
        element('td', { class: 'record-name', text: record.recordName }),
        ...fields.map((field) => {
          const value = (record.fields || {})[field.name];
          const text = formatField(value, field.type);
          const numeric = field.type === 'INT64' || field.type === 'DOUBLE';
          if (text !== null && /^REFERENCE(_LIST)?$/.test(value.type || '')) {
            // A reference is a link to its record.
            const members = Array.isArray(value.value) ? value.value : [value.value];
            const cell = element('td', { class: 'references', 'data-field': field.name, title: text.length > 30 ? text : null });
            members.forEach((member, index) => cell.append(...(index > 0 ? [', '] : []), links.referenceLink(member, state.type, field.name)));
            return cell;
          }
          return element('td', { class: text === null ? 'null' : numeric ? 'number' : null, 'data-field': field.name,
            title: text !== null && text.length > 30 ? text : null, text: text === null ? '—' : text });
        })));
      const table = element('table', { id: 'results-table' }, element('thead', {}, head), element('tbody', {}, ...rows));
      table.addEventListener('click', (event) => {
        const column = event.target.closest('th[data-sort-field]');
        if (column) { sortByColumn(column.dataset.sortField); return; }
        const row = event.target.closest('tbody tr');
        if (row) openRecord(row.dataset.recordName, row);
      });
      table.addEventListener('keydown', (event) => {
        const column = event.target.closest('th[data-sort-field]');
        if (column && (event.key === 'Enter' || event.key === ' ')) { event.preventDefault(); sortByColumn(column.dataset.sortField); return; }
        rowKey(event);
      });
      results.replaceChildren(table);
      stickColumns(table, fields.some((field) => field.name === 'name') ? 3 : 2);
    }
    const more = state.nextMarker ? 'more follow' : 'end of results';
    $('page-info').textContent = !state.type || results.querySelector('table') === null && state.failed ? '' : count === 0 ? (pageIndex === 0 ? 'No records' : 'Page ' + (pageIndex + 1) + ' · no records')
      : 'Page ' + (pageIndex + 1) + ' · rows ' + (first + 1) + '–' + (first + count)
        + (typeof state.total === 'number' ? ' of ' + grouped(state.total) : ' · ' + more);
    $('summary').textContent = !state.type ? '' : state.failed ? state.type + ' · the query failed'
      : typeof state.total === 'number' ? state.type + ' · ' + grouped(state.total) + (state.total === 1 ? ' record matches' : ' records match')
        : state.type + ' · ' + count + (count === 1 ? ' record' : ' records') + ' on this page';
    $('next').disabled = state.failed || !state.nextMarker;
    $('previous').disabled = state.failed || state.pageIndex === 0;
    // Straight to a page, when there is more than one and their number is known.
    const pages = pageCount();
    $('page-jump').classList.toggle('hidden', !state.type || state.failed || pages === null || pages < 2);
    $('page-number').max = String(pages || 1);
    $('page-number').value = String(state.pageIndex + 1);
    $('page-count').textContent = pages === null ? '' : 'of ' + grouped(pages);
    renderStale();
  }

  /// Marks the results on screen when they are not those of the query in the box: the last Run
  /// failed, or the predicate changed since they ran.
  function renderStale() {
    const note = $('stale-note');
    const shown = state.resultsOf;
    let reason = null;
    const text = $('predicate').value.trim();
    if (state.failed && shown && shown.type === state.type && text === (state.failedText || '').trim()) {
      reason = 'The last Run failed' + (state.runError ? ' (' + state.runError.code + ')' : '') + ': these are the results of the query that ran before.';
    } else if (shown && shown.type === state.type && text !== shown.predicate.trim()) {
      reason = 'The predicate changed: these results are of the previous one. Enter runs it.';
    }
    note.textContent = reason || '';
    note.classList.toggle('hidden', !reason);
    $('results').classList.toggle('stale', !!reason);
  }

  // ---- Export: every record of the last query run, through the continuation marker, in the
  // shapes of `query export` (a JSON object a line, or CSV), which `query import` reads back.

  /// A field's wire value in the typed JSON of `query export`: {"$date": ISO 8601},
  /// {"$location": [latitude, longitude]}, {"$ref": name or [name, zone]}, {"$bytes": base64}.
  function exportValue(value, type, isBool) {
    if (value === null || value === undefined) return null;
    if (Array.isArray(value)) return value.map((member) => exportValue(member, type.replace(/_LIST$/, ''), isBool));
    switch (type) {
      case 'INT64': return isBool ? value !== 0 : value;
      case 'TIMESTAMP': return { $date: new Date(Number(value)).toISOString().replace('.000Z', 'Z') };
      case 'LOCATION': {
        const coordinates = [value.latitude, value.longitude];
        if (typeof value.altitude === 'number') coordinates.push(value.altitude);
        return { $location: coordinates };
      }
      case 'REFERENCE': {
        const zone = value.zoneID && value.zoneID.zoneName;
        return { $ref: zone && zone !== '_defaultZone' ? [value.recordName, zone] : value.recordName };
      }
      case 'BYTES': return { $bytes: value };
      default: return value;
    }
  }

  /// JSON with every object's keys sorted, as `query export` writes it.
  function sortedJSON(value) {
    if (Array.isArray(value)) return '[' + value.map(sortedJSON).join(',') + ']';
    if (value && typeof value === 'object') {
      return '{' + Object.keys(value).sort().map((key) => JSON.stringify(key) + ':' + sortedJSON(value[key])).join(',') + '}';
    }
    return JSON.stringify(value);
  }

  function csvQuoted(text) { return '"' + String(text).replace(/"/g, '""') + '"'; }

  function exportLine(record, format, columns, bools) {
    const fields = {};
    for (const [name, field] of Object.entries(record.fields || {})) {
      const value = exportValue(field.value, field.type || '', bools.has(name));
      if (value !== null) fields[name] = value;
    }
    if (format === 'jsonl') {
      return sortedJSON({ recordName: record.recordName, recordType: record.recordType,
        zone: (record.zoneID && record.zoneID.zoneName) || state.zone || '_defaultZone', fields });
    }
    // CSV: numbers and booleans bare, text quoted, typed values and lists as quoted JSON.
    return [csvQuoted(record.recordName), ...columns.map((name) => {
      const value = fields[name];
      if (value === undefined || value === null) return '';
      if (typeof value === 'string') return csvQuoted(value);
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      return csvQuoted(sortedJSON(value));
    })].join(',');
  }

  async function exportRecords() {
    if (!state.type || !state.queryBody) return;
    const format = $('export-format').value;
    const status = $('export-status');
    const schema = typeSchema(state.queryBody.query.recordType);
    const columns = schema.fields.map((field) => field.fieldName);
    const bools = new Set(schema.fields.filter((field) => /\bbool$/.test(field.storeType || '')).map((field) => field.fieldName));
    const lines = format === 'csv' ? [['recordName', ...columns].map(csvQuoted).join(',')] : [];
    let body = state.queryBody;
    let pages = 0;
    $('export').disabled = true;
    delete document.body.dataset.exported;
    try {
      for (;;) {
        status.textContent = 'Exporting… ' + (lines.length - (format === 'csv' ? 1 : 0)) + ' records';
        const answer = await call('records/query', body);
        pages += 1;
        for (const record of answer.records || []) lines.push(exportLine(record, format, columns, bools));
        if (!answer.continuationMarker) break;
        body = { continuationMarker: answer.continuationMarker, resultsLimit: state.pageSize, ...zoneBody() };
      }
    } catch (failure) {
      status.textContent = 'Export failed: ' + (failure.code || '') + ' ' + (failure.reason || failure.message);
      $('export').disabled = false;
      return;
    }
    const count = lines.length - (format === 'csv' ? 1 : 0);
    const blob = new Blob([lines.map((line) => line + '\n').join('')], { type: format === 'csv' ? 'text/csv' : 'application/x-ndjson' });
    const link = element('a', { href: URL.createObjectURL(blob), download: state.queryBody.query.recordType + '.' + format, class: 'hidden' });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    status.textContent = 'Exported ' + count + (count === 1 ? ' record' : ' records') + ' (' + pages + (pages === 1 ? ' page' : ' pages') + ')';
    document.body.dataset.exported = String(count);
    $('export').disabled = false;
  }

  // ---- The plan (records/explain).

  let planSequence = 0;
  async function loadPlan() {
    const sequence = ++planSequence;
    const run = state.run;
    let plan = null;
    let failure = null;
    try { plan = await call('records/explain', state.queryBody); } catch (error) { failure = error; }
    if (sequence !== planSequence) return;
    state.plan = plan;
    state.planError = failure;
    renderPlan();
    $('plan-view').dataset.run = String(run);
  }

  function renderPlan() {
    const view = $('plan-view');
    if (state.planError) {
      view.replaceChildren(element('p', { class: 'empty-state', text: 'No plan: ' + state.planError.reason }));
      return;
    }
    const plan = state.plan;
    if (!plan) return;
    const indexes = plan.indexesUsed.length > 0
      ? plan.indexesUsed.map((name) => element('span', { class: 'index-name', text: name }))
      : [element('span', { class: 'no-index', text: 'none: every row of the type is read' })];
    view.replaceChildren(
      element('h3', { text: 'Indexes used' }), element('div', { id: 'plan-indexes' }, ...indexes),
      element('h3', { text: 'Checked on each row (residual)' }),
      element('div', { id: 'plan-residual', text: plan.residual === null ? 'nothing: SQL does it all' : plan.residual }),
      element('h3', { text: 'Plan (' + plan.engine + ')' }), element('pre', { id: 'plan-text', text: plan.plan }));
  }

  // ---- The map: an equirectangular projection of the page's locations, drawn here.

  function locationPoints() {
    const locationFields = new Set(typeSchema(state.type).fields.filter((field) => field.type === 'LOCATION').map((field) => field.fieldName));
    const points = [];
    for (const record of state.records) {
      const fields = record.fields || {};
      const label = fields.name && typeof fields.name.value === 'string' ? fields.name.value : record.recordName;
      for (const [name, field] of Object.entries(fields)) {
        if (!(locationFields.has(name) || field.type === 'LOCATION') || !field.value) continue;
        const { latitude, longitude } = field.value;
        if (typeof latitude !== 'number' || typeof longitude !== 'number') continue;
        points.push({ latitude, longitude, label, field: name, recordName: record.recordName });
      }
    }
    return points;
  }

  function graticuleStep(span) {
    for (const step of [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 45, 90]) if (span / step <= 12) return step;
    return 90;
  }

  function degrees(value, positive, negative) {
    const rounded = Math.round(Math.abs(value) * 10) / 10;
    return rounded + '°' + (value > 0 ? positive : value < 0 ? negative : '');
  }

  /// Names the points, in the query's order, where a name fits: right of its point, else left,
  /// above or below, never over another name or point nor past the map's edge. A point left
  /// unnamed shows its name on hover (its title).
  function placeLabels(svg, points, width, height) {
    const placed = [];
    const dots = points.map((point) => ({ left: point.x - 5, right: point.x + 5, top: point.y - 5, bottom: point.y + 5 }));
    const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    points.slice(0, 60).forEach((point, index) => {
      const text = svgElement('text', { class: 'point-label', x: 0, y: 0 }, point.label);
      svg.append(text);
      const box = text.getBBox();
      const candidates = [
        [point.x + 8, point.y + box.height / 2 - 3], [point.x - 8 - box.width, point.y + box.height / 2 - 3],
        [point.x - box.width / 2, point.y - 9], [point.x - box.width / 2, point.y + 9 + box.height - 3],
      ];
      for (const [left, baseline] of candidates) {
        const area = { left: left - 1, right: left + box.width + 1, top: baseline - box.height + 3, bottom: baseline + 4 };
        const inside = area.left >= 0 && area.right <= width && area.top >= 0 && area.bottom <= height;
        if (inside && !placed.some((other) => overlaps(area, other)) && !dots.some((dot, other) => other !== index && overlaps(area, dot))) {
          text.setAttribute('x', left.toFixed(1));
          text.setAttribute('y', baseline.toFixed(1));
          placed.push(area);
          return;
        }
      }
      text.remove();
    });
  }

  function renderMap() {
    const svg = $('map-svg');
    const points = locationPoints();
    const width = svg.clientWidth || 800;
    const height = svg.clientHeight || 450;
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    svg.dataset.points = String(points.length);
    if (points.length === 0) {
      svg.replaceChildren();
      $('map-caption').textContent = 'No location on this page of results.';
      return;
    }
    let south = Math.min(...points.map((point) => point.latitude));
    let north = Math.max(...points.map((point) => point.latitude));
    let west = Math.min(...points.map((point) => point.longitude));
    let east = Math.max(...points.map((point) => point.longitude));
    const middle = (south + north) / 2;
    const squeeze = Math.max(0.2, Math.cos(middle * Math.PI / 180));
    const margin = 36;
    const latitudeSpan = Math.max(north - south, 1);
    const longitudeSpan = Math.max(east - west, 1);
    const scale = Math.min((width - 2 * margin) / (longitudeSpan * squeeze), (height - 2 * margin) / latitudeSpan);
    const centerLongitude = (west + east) / 2;
    west = centerLongitude - width / 2 / (scale * squeeze);
    east = centerLongitude + width / 2 / (scale * squeeze);
    north = middle + height / 2 / scale;
    south = middle - height / 2 / scale;
    const x = (longitude) => (longitude - west) * squeeze * scale;
    const y = (latitude) => (north - latitude) * scale;
    const nodes = [];
    const step = graticuleStep(Math.max(north - south, (east - west) * squeeze));
    for (let latitude = Math.ceil(Math.max(south, -90) / step) * step; latitude <= Math.min(north, 90); latitude += step) {
      nodes.push(svgElement('line', { class: 'graticule', x1: 0, x2: width, y1: y(latitude).toFixed(1), y2: y(latitude).toFixed(1) }));
      nodes.push(svgElement('text', { class: 'graticule-label', x: 4, y: (y(latitude) - 3).toFixed(1) }, degrees(latitude, 'N', 'S')));
    }
    for (let longitude = Math.ceil(west / step) * step; longitude <= east; longitude += step) {
      nodes.push(svgElement('line', { class: 'graticule', y1: 0, y2: height, x1: x(longitude).toFixed(1), x2: x(longitude).toFixed(1) }));
      nodes.push(svgElement('text', { class: 'graticule-label', x: (x(longitude) + 3).toFixed(1), y: height - 5 }, degrees(longitude, 'E', 'W')));
    }
    for (const point of points) {
      const circle = svgElement('circle', { class: 'point', cx: x(point.longitude).toFixed(1), cy: y(point.latitude).toFixed(1), r: 5,
        'data-record-name': point.recordName });
      circle.append(svgElement('title', {}, point.label + ' (' + point.field + ': ' + point.latitude + ', ' + point.longitude + ')'));
      nodes.push(circle);
    }
    svg.replaceChildren(...nodes);
    placeLabels(svg, points.map((point) => ({ x: x(point.longitude), y: y(point.latitude), label: point.label })), width, height);
    const fields = [...new Set(points.map((point) => point.field))].join(', ');
    $('map-caption').textContent = points.length + (points.length === 1 ? ' point' : ' points') + ' (' + state.type + '.' + fields + ') on page ' +
      (state.pageIndex + 1) + ' · equirectangular projection, true to scale at ' + degrees(middle, 'N', 'S') + ' · graticule every ' + step + '°';
  }

  // ---- The record panel: every field of one record, and edits through records/modify.
  //
  // The panel shows the record as records/lookup answers it. Edit, Duplicate and New record open
  // a form typed by the schema; nothing is written until Save. An update or a delete carries the
  // record's change tag, so a record changed meanwhile by another client is not overwritten
  // unawares: the server answers CONFLICT with its version, shown beside the edit.

  const detail = { mode: null, record: null, edit: null, conflict: null, returnFocus: null, share: null, history: [], lookedUp: null };

  function recordFromRow(recordName) { return state.records.find((record) => record.recordName === recordName) || null; }

  /// The `zoneID` of the zone picked (with its owner, in a shared database); none for the default zone.
  function zoneBody() {
    if (state.zoneOwner) return { zoneID: { zoneName: state.zone, ownerRecordName: state.zoneOwner } };
    return state.zone && state.zone !== '_defaultZone' ? { zoneID: { zoneName: state.zone } } : {};
  }

  /// Opens a record in the panel (looked up by name in the zone picked). `options.recordType`:
  /// its type when known (a link's); `options.keepHistory`: the records opened before it stay,
  /// for Back (a link followed, or Back itself).
  async function openRecord(recordName, returnFocus, options) {
    const { recordType = null, keepHistory = false } = options || {};
    if (!keepHistory) detail.history = [];
    detail.returnFocus = returnFocus || null;
    detail.lookedUp = null;
    detail.record = recordFromRow(recordName) || { recordName, recordType: recordType || '', fields: {} };
    detail.edit = null;
    detail.conflict = null;
    detail.share = null;
    setDetailMode('view');
    writeAddress();
    $('detail').dataset.loaded = 'false';
    try {
      const answer = await call('records/lookup', { records: [{ recordName }], ...zoneBody() });
      const found = (answer.records || [])[0];
      if (detail.record.recordName !== recordName) return;
      if (!found || found.serverErrorCode) {
        showDetailError(new Failure(found ? found.serverErrorCode : 'NOT_FOUND', found ? found.reason : 'no answer for ' + recordName));
      } else {
        detail.record = found;
        detail.share = await recordShare(found);
        if (detail.record.recordName !== recordName) return;
        detail.lookedUp = recordName;
        if (detail.mode === 'view') renderDetail();
      }
    } catch (failure) {
      showDetailError(failure);
    }
    $('detail').dataset.loaded = 'true';
  }

  /// Follows a link: its record in the panel, after the one the panel shows (which Back
  /// reopens); from the results, the panel opens on it.
  function openLinked(recordName, recordType, from) {
    if (detail.mode === 'view' && detail.record && detail.record.recordName) {
      detail.history.push({ recordName: detail.record.recordName, recordType: detail.record.recordType });
      openRecord(recordName, detail.returnFocus, { recordType, keepHistory: true });
    } else {
      openRecord(recordName, from, { recordType });
    }
  }

  /// Back: the record the panel showed before the link followed.
  function goBack() {
    const previous = detail.history.pop();
    if (previous) openRecord(previous.recordName, detail.returnFocus, { recordType: previous.recordType, keepHistory: true });
  }

  /// The record name of a zone-wide share (CloudKit's `CKRecordNameZoneWideShare`).
  const ZONE_SHARE = 'cloudkit.zoneshare';

  /// The share a record shows: itself when it is one, else the share its `share` names (a
  /// shared hierarchy's root), else its zone's zone-wide share when the zone has one (a record
  /// of such a zone names no share: the zone is shared), else none.
  async function recordShare(record) {
    if (record.recordType === 'cloudkit.share') return record;
    if (record.share && record.share.recordName) {
      const answer = await call('records/lookup', { records: [{ recordName: record.share.recordName }], ...zoneBody() });
      const found = (answer.records || [])[0];
      return found && !found.serverErrorCode ? found : null;
    }
    // Shares live in the custom zones of private databases (and are read in shared ones).
    const zoneName = record.zoneID && record.zoneID.zoneName;
    if ($('database').value === 'public' || !zoneName || zoneName === '_defaultZone') return null;
    try {
      const answer = await call('records/lookup', { records: [{ recordName: ZONE_SHARE }], ...zoneBody() });
      const found = (answer.records || [])[0];
      return found && !found.serverErrorCode && found.recordType === 'cloudkit.share' ? found : null;
    } catch (_) {
      // No zone-wide share to show is no failure of the record's.
      return null;
    }
  }

  /// A participant as the page names them: email address and user record name, as the share has them.
  function participantName(participant) {
    const identity = (participant && participant.userIdentity) || {};
    const email = identity.lookupInfo && identity.lookupInfo.emailAddress;
    if (identity.userRecordName) return email ? email + ' (' + identity.userRecordName + ')' : identity.userRecordName;
    return email || '—';
  }

  /// A share's owner, public permission, short GUID and participants (CloudKit's CKShare).
  function shareNodes(share) {
    const summary = 'Shared by ' + participantName(share.owner) + ' · public permission ' + (share.publicPermission || 'NONE')
      + (share.shortGUID ? ' · short GUID ' + share.shortGUID : '');
    const columns = ['Participant', 'Type', 'Permission', 'Status'];
    return [
      element('h3', { text: share === detail.record ? 'Participants'
        : share.recordName === ZONE_SHARE ? 'Zone-wide share of ' + ((share.zoneID && share.zoneID.zoneName) || 'this zone') : 'Share ' + share.recordName }),
      element('p', { id: 'detail-share-summary', class: 'hint', text: summary }),
      element('table', { id: 'detail-participants', class: 'detail-table participants' },
        element('thead', {}, element('tr', {}, ...columns.map((text) => element('th', { scope: 'col', text })))),
        element('tbody', {}, ...(share.participants || []).map((participant) => element('tr', {
          'data-user': (participant.userIdentity && participant.userIdentity.userRecordName) || '' },
          element('td', { text: participantName(participant) }), element('td', { text: participant.type || '' }),
          element('td', { text: participant.permission || '' }), element('td', { text: participant.acceptanceStatus || '' })))))];
  }

  function newRecord(from) {
    detail.returnFocus = document.activeElement;
    detail.record = from ? { recordType: from.recordType, fields: from.fields } : { recordType: state.type, fields: {} };
    detail.conflict = null;
    setDetailMode(from ? 'duplicate' : 'new');
  }

  /// The record panel is a modal dialog: while it is open the page behind it is inert (no
  /// click, no focus, hidden from assistive technology) and Tab cycles inside it.
  function setPageInert(inert) {
    for (const region of document.querySelectorAll('body > header, body > main')) region.inert = inert;
    $('detail-backdrop').classList.toggle('hidden', !inert);
  }

  /// Tab and Shift+Tab from the panel's last or first control go round to its first or last.
  function keepFocusInPanel(event) { keepFocusInside($('detail'), event); }

  /// Tab and Shift+Tab from a dialog's last or first control go round to its first or last.
  function keepFocusInside(panel, event) {
    const controls = [...panel.querySelectorAll('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])')]
      .filter((node) => !node.disabled && node.getClientRects().length > 0);
    if (controls.length === 0) { event.preventDefault(); return; }
    const inside = panel.contains(document.activeElement);
    if (event.shiftKey && (!inside || document.activeElement === controls[0])) {
      event.preventDefault();
      controls[controls.length - 1].focus();
    } else if (!event.shiftKey && (!inside || document.activeElement === controls[controls.length - 1])) {
      event.preventDefault();
      controls[0].focus();
    }
  }

  function closeDetail() {
    detail.mode = null;
    detail.history = [];
    setPageInert(false);
    $('detail').classList.add('hidden');
    delete $('detail').dataset.state;
    const target = detail.returnFocus;
    detail.returnFocus = null;
    if (target && document.contains(target)) target.focus();
    writeAddress();
  }

  function setDetailMode(mode) {
    detail.mode = mode;
    hideDetailError();
    renderDetail();
    $('detail').classList.remove('hidden');
    setPageInert(true);
    const first = $('detail').querySelector('[data-autofocus]') || $('detail-close');
    first.focus();
  }

  function showDetailError(failure) {
    const box = $('detail-error');
    box.replaceChildren(...failureNodes(failure));
    box.classList.remove('hidden');
  }

  function hideDetailError() { $('detail-error').classList.add('hidden'); }

  function button(text, attributes, action) {
    const node = element('button', { type: 'button', class: 'plain', text, ...attributes });
    node.addEventListener('click', action);
    return node;
  }

  function formatTimestamp(milliseconds) {
    const date = new Date(Number(milliseconds));
    return date.toLocaleString() + ' (' + date.toISOString() + ')';
  }

  /// A value in the panel: lists whole, references as links. `of`: the type it shows as
  /// (BOOLEAN), and the record type and the field's name (for a reference's destination;
  /// without the record type, a reference is text).
  function valueNode(field, of) {
    if (!field || field.value === null || field.value === undefined) return element('span', { class: 'null', text: '—' });
    const shown = of && of.shown && of.shown.startsWith('BOOLEAN') ? of.shown : field.type || '';
    const type = shown.replace(/_LIST$/, '');
    const node = (member) => type === 'REFERENCE' && of && of.recordType ? links.referenceLink(member, of.recordType, of.name)
      : document.createTextNode(type === 'TIMESTAMP' ? formatTimestamp(member) : formatScalar(member, type));
    if (Array.isArray(field.value)) {
      if (field.value.length === 0) return element('span', { class: 'null', text: 'empty list' });
      return element('ol', { class: 'list' }, ...field.value.map((member) => element('li', {}, node(member))));
    }
    return element('span', {}, node(field.value));
  }

  /// The fields a form or a view lists: the schema's, then any other the record has; each with
  /// its wire type and the type it shows as.
  function fieldList(record) {
    const fields = typeSchema(record.recordType).fields.map((field) => ({ name: field.fieldName, type: field.type,
      shown: shownType(record.recordType, field.fieldName, field.type) }));
    const known = new Set(fields.map((field) => field.name));
    for (const [name, field] of Object.entries(record.fields || {})) if (!known.has(name)) fields.push({ name, type: field.type || '', shown: field.type || '' });
    return fields;
  }

  function renderDetail() {
    const panel = $('detail');
    const record = detail.record;
    panel.dataset.state = detail.mode;
    panel.dataset.recordName = record.recordName || '';
    const title = detail.mode === 'new' ? 'New ' + record.recordType : detail.mode === 'duplicate' ? 'Copy of a ' + record.recordType
      : (record.recordType ? record.recordType + ' ' : '') + record.recordName;
    $('detail-title').textContent = title;
    // Back, after a link: to the record shown before.
    const previous = detail.history[detail.history.length - 1];
    const back = $('detail-back');
    back.classList.toggle('hidden', !previous || detail.mode !== 'view');
    if (previous) back.title = 'Back to ' + (previous.recordType ? previous.recordType + ' ' : '') + previous.recordName;
    const body = $('detail-body');
    // Drawn again (the record looked up), the panel keeps the focus on the same control.
    const focused = body.contains(document.activeElement) && document.activeElement.id ? document.activeElement.id : null;
    switch (detail.mode) {
      case 'view':
        body.replaceChildren(...viewNodes(record));
        links.resolveTypes(body);
        break;
      case 'edit': case 'new': case 'duplicate': body.replaceChildren(formNode(record)); break;
      case 'delete': body.replaceChildren(...deleteNodes(record)); break;
      case 'conflict': body.replaceChildren(...conflictNodes()); break;
      default: body.replaceChildren();
    }
    if (focused && !body.contains(document.activeElement) && $(focused) && body.contains($(focused))) $(focused).focus();
  }

  function zoneName(record) { return (record.zoneID && record.zoneID.zoneName) || state.zone || '_defaultZone'; }

  function viewNodes(record) {
    const system = [
      ['recordName', record.recordName, record.recordName],
      ['recordType', record.recordType, record.recordType],
      ['zone', zoneName(record), zoneName(record)],
      ['recordChangeTag', record.recordChangeTag || '—', record.recordChangeTag || null],
      ['created', record.created ? formatTimestamp(record.created.timestamp) : '—', record.created ? String(record.created.timestamp) : null],
      ['modified', record.modified ? formatTimestamp(record.modified.timestamp) : '—', record.modified ? String(record.modified.timestamp) : null],
    ];
    const actions = element('div', { class: 'detail-actions' },
      button('Edit', { id: 'detail-edit', 'data-autofocus': true, title: 'Edit the fields (E)' }, () => startEdit()),
      button('Duplicate', { id: 'detail-duplicate' }, () => newRecord(detail.record)),
      button('Delete…', { id: 'detail-delete', class: 'plain danger' }, () => { detail.mode = 'delete'; hideDetailError(); renderDetail(); focusFirst(); }));
    return [
      actions,
      element('h3', { text: 'Fields' }),
      element('table', { id: 'detail-fields', class: 'detail-table' }, element('tbody', {}, ...fieldList(record).map((field) => {
        const value = (record.fields || {})[field.name];
        const shown = field.shown.startsWith('BOOLEAN') ? field.shown : (value && value.type) || field.type;
        return element('tr', { 'data-field': field.name, 'data-value': value ? JSON.stringify(value.value) : 'null',
          'data-type': value && value.type ? value.type : field.type },
          element('th', { text: field.name }), element('td', { class: 'field-type', text: shown }),
          element('td', { class: 'field-value' }, valueNode(value, { recordType: record.recordType, name: field.name, shown })));
      }))),
      element('h3', { text: 'System fields' }),
      element('table', { id: 'detail-system', class: 'detail-table' }, element('tbody', {}, ...system.map(([name, text, raw]) =>
        element('tr', { 'data-system': name, 'data-value': raw }, element('th', { text: name }), element('td', { text }))))),
      ...(detail.share ? shareNodes(detail.share) : []),
      // The records that point at this one, once it is looked up.
      detail.lookedUp === record.recordName ? links.relatedSection(record) : null].filter(Boolean);
  }

  function focusFirst() { const first = $('detail').querySelector('[data-autofocus]'); if (first) first.focus(); }

  function startEdit() {
    detail.conflict = null;
    setDetailMode('edit');
  }

  // The text a form shows for a value, and back: one line per member of a list, a location as
  // "latitude, longitude", a timestamp in ISO 8601, bytes in base64, a reference by its name.
  function scalarText(value, type) {
    if (value === null || value === undefined) return '';
    switch (type) {
      case 'TIMESTAMP': return new Date(Number(value)).toISOString();
      case 'LOCATION': return value.latitude + ', ' + value.longitude;
      case 'REFERENCE': return value.recordName || '';
      case 'BOOLEAN': return Number(value) ? 'true' : 'false';
      default: return typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
  }

  function fieldText(field, type) {
    if (!field || field.value === null || field.value === undefined) return '';
    if (Array.isArray(field.value)) return field.value.map((member) => scalarText(member, type.replace(/_LIST$/, ''))).join('\n');
    return scalarText(field.value, type);
  }

  class InputError extends Error {}

  function parseScalar(text, type) {
    switch (type) {
      case 'STRING': return text;
      case 'INT64': {
        if (!/^[+-]?\d+$/.test(text.trim())) throw new InputError('"' + text + '" is not a whole number');
        const number = Number(text.trim());
        if (!Number.isSafeInteger(number)) throw new InputError(text + ' is too large for the console (at most 2^53 − 1)');
        return number;
      }
      case 'DOUBLE': {
        const number = Number(text.trim());
        if (text.trim() === '' || !Number.isFinite(number)) throw new InputError('"' + text + '" is not a number');
        return number;
      }
      case 'TIMESTAMP': {
        const milliseconds = Date.parse(text.trim());
        if (Number.isNaN(milliseconds)) throw new InputError('"' + text + '" is not a date (ISO 8601: 2024-05-01T12:00:00Z)');
        return milliseconds;
      }
      case 'LOCATION': {
        const parts = text.split(',').map((part) => Number(part.trim()));
        if (parts.length !== 2 || parts.some((part) => !Number.isFinite(part)) || Math.abs(parts[0]) > 90 || Math.abs(parts[1]) > 180) {
          throw new InputError('"' + text + '" is not "latitude, longitude"');
        }
        return { latitude: parts[0], longitude: parts[1] };
      }
      case 'REFERENCE': return { recordName: text.trim(), action: 'NONE' };
      case 'BOOLEAN': {
        // Sent as INT64, as CloudKit has booleans.
        const flag = text.trim().toLowerCase();
        if (['true', 'yes', '1'].includes(flag)) return 1;
        if (['false', 'no', '0'].includes(flag)) return 0;
        throw new InputError('"' + text + '" is not true or false');
      }
      case 'BYTES':
        try { atob(text.trim()); } catch (_) { throw new InputError('"' + text + '" is not base64'); }
        return text.trim();
      default: throw new InputError(type + ' cannot be edited here');
    }
  }

  /// A form input's value for records/modify: null when empty (the field is cleared).
  function parseInput(text, type) {
    if (type.endsWith('_LIST')) {
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      if (lines.length === 0) return null;
      return lines.map((line) => parseScalar(type === 'STRING_LIST' ? line : line.trim(), type.replace(/_LIST$/, '')));
    }
    if (text === '') return null;
    return parseScalar(text, type);
  }

  function formNode(record) {
    const creating = detail.mode !== 'edit';
    const form = element('form', { id: 'detail-form', novalidate: true });
    const rows = [];
    if (creating) {
      rows.push(element('label', { class: 'form-row' }, element('span', { class: 'form-name', text: 'recordName' }),
        element('span', { class: 'form-type', text: 'optional: generated when empty' }),
        element('input', { id: 'new-record-name', name: 'recordName', autocomplete: 'off', spellcheck: 'false', 'data-autofocus': true })));
    }
    fieldList(record).forEach((field, index) => {
      const type = field.type || 'STRING';
      // A boolean is edited as true or false (or nothing), and sent as INT64.
      const shown = field.shown && field.shown.startsWith('BOOLEAN') ? field.shown : type;
      const initial = detail.edit && field.name in detail.edit ? detail.edit[field.name] : fieldText((record.fields || {})[field.name], shown);
      const editable = !type.startsWith('ASSET');
      const list = type.endsWith('_LIST');
      const input = shown === 'BOOLEAN'
        ? element('select', {}, ...[['', '—'], ['true', 'true'], ['false', 'false']].map(([value, text]) => element('option', { value, text })))
        : list || initial.includes('\n')
          ? element('textarea', { rows: String(Math.min(8, Math.max(2, initial.split('\n').length + 1))) })
          : element('input', { autocomplete: 'off', inputmode: type === 'INT64' ? 'numeric' : type === 'DOUBLE' ? 'decimal' : null });
      input.value = initial;
      input.dataset.field = field.name;
      input.dataset.type = type;
      input.dataset.shown = shown;
      input.dataset.initial = fieldText((record.fields || {})[field.name], shown);
      input.spellcheck = false;
      if (!editable) input.disabled = true;
      if (!creating && index === 0) input.dataset.autofocus = 'true';
      const hint = list ? shown.replace('_LIST', '') + ' list, one a line' : type === 'LOCATION' ? 'latitude, longitude'
        : type === 'TIMESTAMP' ? 'ISO 8601' : type === 'REFERENCE' ? 'record name' : shown === 'BOOLEAN' ? 'true or false' : type;
      rows.push(element('label', { class: 'form-row' }, element('span', { class: 'form-name', text: field.name }),
        element('span', { class: 'form-type', text: hint }), input));
    });
    const save = element('button', { type: 'submit', class: 'primary', id: 'detail-save', text: detail.mode === 'edit' ? 'Save' : 'Create' });
    const cancel = button('Cancel', { id: 'detail-cancel' }, () => cancelEdit());
    form.append(element('p', { class: 'form-note', text: 'Nothing is written until you ' + (detail.mode === 'edit' ? 'save' : 'create') +
      '. An empty box clears its field.' }), ...rows, element('div', { class: 'detail-actions' }, save, cancel));
    form.addEventListener('submit', (event) => { event.preventDefault(); saveForm(form); });
    return form;
  }

  function cancelEdit() {
    detail.edit = null;
    if (detail.mode === 'edit' || detail.mode === 'delete' || detail.mode === 'conflict') setDetailMode('view'); else closeDetail();
  }

  /// The fields a form changed, parsed; throws an InputError naming the field.
  function changedFields(form, everything) {
    const fields = {};
    for (const input of form.querySelectorAll('[data-field]')) {
      if (input.disabled) continue;
      if (!everything && input.value === input.dataset.initial) continue;
      let value;
      try { value = parseInput(input.value, input.dataset.shown || input.dataset.type); } catch (error) {
        if (error instanceof InputError) { input.focus(); throw new InputError(input.dataset.field + ': ' + error.message); }
        throw error;
      }
      if (everything && value === null) continue;
      fields[input.dataset.field] = { value, type: input.dataset.type };
    }
    return fields;
  }

  async function saveForm(form) {
    hideDetailError();
    const creating = detail.mode !== 'edit';
    let fields;
    try { fields = changedFields(form, creating); } catch (error) {
      if (error instanceof InputError) { showDetailError(new Failure('INVALID', error.message)); return; }
      throw error;
    }
    if (!creating && Object.keys(fields).length === 0) { showDetailError(new Failure('UNCHANGED', 'nothing to save: no field was changed')); return; }
    // What was typed, kept if the server answers with a conflict.
    detail.edit = {};
    for (const input of form.querySelectorAll('[data-field]')) if (input.value !== input.dataset.initial) detail.edit[input.dataset.field] = input.value;
    const record = creating
      ? { recordType: detail.record.recordType, fields, ...(form.querySelector('#new-record-name').value.trim() ? { recordName: form.querySelector('#new-record-name').value.trim() } : {}) }
      : { recordName: detail.record.recordName, recordType: detail.record.recordType, recordChangeTag: detail.record.recordChangeTag, fields };
    await modify(creating ? 'create' : 'update', record, fields);
  }

  /// One operation through records/modify; the answer shown (a conflict beside the edit).
  async function modify(operationType, record, fields) {
    const panel = $('detail');
    panel.dataset.saving = 'true';
    let answer;
    try {
      answer = await call('records/modify', { operations: [{ operationType, record }], ...zoneBody() });
    } catch (failure) {
      delete panel.dataset.saving;
      showDetailError(failure);
      return;
    }
    delete panel.dataset.saving;
    const result = (answer.records || [])[0];
    if (!result) { showDetailError(new Failure('ERROR', 'records/modify answered no record')); return; }
    if (result.serverErrorCode === 'CONFLICT' && result.serverRecord) {
      // A deletion edits no field: its conflict compares the record as opened with the server's.
      detail.conflict = { operationType, fields: fields || {}, server: result.serverRecord, reason: result.reason };
      detail.mode = 'conflict';
      renderDetail();
      focusFirst();
      return;
    }
    if (result.serverErrorCode) { showDetailError(new Failure(result.serverErrorCode, result.reason)); return; }
    detail.edit = null;
    detail.conflict = null;
    refreshPage();
    if (result.deleted) { closeDetail(); flash('Deleted ' + result.recordName + '.'); return; }
    detail.record = result;
    setDetailMode('view');
    flash((operationType === 'create' ? 'Created ' : 'Saved ') + result.recordName + '.');
  }

  /// An unexpected script error, shown where the person is looking (the record panel when it is
  /// open, else above the results) rather than lost in the browser's console.
  function showScriptError(error) {
    const failure = new Failure('SCRIPT_ERROR', 'the console failed: ' + ((error && error.message) || String(error)));
    delete $('detail').dataset.saving;
    if (detail.mode) showDetailError(failure); else showRequestError(failure);
  }

  function flash(text) {
    const note = $('detail-note');
    note.textContent = text;
    note.classList.remove('hidden');
    clearTimeout(flash.timer);
    flash.timer = setTimeout(() => note.classList.add('hidden'), 4000);
  }

  function deleteNodes(record) {
    return [
      element('p', { class: 'confirm', text: 'Delete ' + record.recordType + ' ' + record.recordName + '? It cannot be undone.' }),
      element('div', { class: 'detail-actions' },
        button('Delete', { id: 'confirm-delete', class: 'plain danger', 'data-autofocus': true }, () =>
          modify('delete', { recordName: record.recordName, recordChangeTag: record.recordChangeTag })),
        button('Cancel', { id: 'detail-cancel' }, () => cancelEdit()))];
  }

  function conflictNodes() {
    const conflict = detail.conflict;
    const server = conflict.server;
    const deleting = conflict.operationType === 'delete';
    // The fields edited, then those the other client changed.
    const opened = detail.record.fields || {};
    const same = (a, b) => sameValue(a ? a.value : null, b ? b.value : null);
    const changed = fieldList(server).map((field) => field.name).filter((name) => !same(opened[name], (server.fields || {})[name]));
    const names = deleting ? changed : [...new Set([...Object.keys(conflict.fields), ...changed])];
    const rows = names.map((name) => {
      const mine = conflict.fields[name];
      const theirs = (server.fields || {})[name];
      const before = opened[name];
      // Shown as the panel shows them, references as text (a link would leave the conflict).
      const of = { name, shown: shownType(server.recordType, name, '') };
      return element('tr', { 'data-field': name },
        element('th', { text: name }),
        element('td', { class: 'conflict-before' }, valueNode(before, of)),
        element('td', { class: 'conflict-mine' }, deleting ? element('span', { class: 'null', text: 'deleted' })
          : name in conflict.fields ? valueNode(mine, of) : element('span', { class: 'null', text: 'not edited' })),
        element('td', { class: 'conflict-server' }, valueNode(theirs, of)));
    });
    const retried = deleting
      ? { recordName: server.recordName, recordChangeTag: server.recordChangeTag }
      : { recordName: server.recordName, recordType: server.recordType, recordChangeTag: server.recordChangeTag, fields: conflict.fields };
    return [
      element('p', { class: 'confirm', id: 'conflict-message',
        text: 'This record was changed by someone else since you opened it (change tag ' + (detail.record.recordChangeTag || '—') + ' is now ' +
          (server.recordChangeTag || '—') + '). ' + (deleting ? 'Nothing was deleted.' : 'Your edit was not saved.') }),
      element('div', { class: 'table-scroll' }, element('table', { id: 'conflict-table', class: 'detail-table' },
        element('thead', {}, element('tr', {}, element('th', { text: 'Field' }), element('th', { text: 'When opened' }),
          element('th', { text: deleting ? 'Yours' : 'Your edit' }), element('th', { text: 'Server now' }))),
        element('tbody', {}, ...rows))),
      element('div', { class: 'detail-actions' },
        button('Reload the server’s version', { id: 'conflict-reload', 'data-autofocus': true }, () => {
          detail.record = server; detail.edit = null; detail.conflict = null; refreshPage(); setDetailMode('view');
        }),
        button(deleting ? 'Delete anyway' : 'Overwrite with my edit', { id: 'conflict-overwrite', class: 'plain danger' }, () => {
          detail.record = server;
          modify(conflict.operationType, retried, conflict.fields);
        }))];
  }

  /// Whether two field values are equal, whatever the order of their objects' members.
  function sameValue(a, b) {
    const canonical = (value) => Array.isArray(value) ? value.map(canonical)
      : value && typeof value === 'object' ? Object.keys(value).sort().map((key) => [key, canonical(value[key])]) : value;
    return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
  }

  /// The page shown again after a write, with the query's total and the types' counts.
  function refreshPage() {
    if (!state.type) return;
    state.recount = true;
    loadPage();
    loadCounts();
  }

  // ---- Security roles: the public database's custom roles and who holds them (roles/list), given
  // and taken (roles/assign, roles/remove) by the administrator, each change confirmed first. The
  // requests carry the administrator token from the header as the bearer token; on a server
  // without credentials anyone here is the administrator.

  const roles = { list: [], pending: null, loads: 0, sequence: 0 };

  /// Calls an administration route of the environment's public database.
  function adminCall(path, body) { return call(path, body, 'public', false, true); }

  function showRolesError(failure) {
    const box = $('roles-error');
    box.replaceChildren(...failureNodes(failure));
    box.classList.remove('hidden');
  }

  function hideRolesError() { $('roles-error').classList.add('hidden'); }

  async function loadRoles() {
    const sequence = ++roles.sequence;
    const view = $('roles-view');
    view.dataset.busy = 'true';
    $('roles-scope').textContent = 'The ' + $('environment').value + ' environment’s public database: a change holds at once on every server over this store.';
    let answer = null;
    let failure = null;
    try { answer = await adminCall('roles/list'); } catch (error) { failure = error; }
    if (sequence !== roles.sequence) return;
    if (failure) {
      roles.list = [];
      showRolesError(failure);
    } else {
      roles.list = answer.roles || [];
      hideRolesError();
    }
    roles.failed = !!failure;
    renderRoles();
    roles.loads += 1;
    view.dataset.loads = String(roles.loads);
    delete view.dataset.busy;
  }

  /// A user as a confirmation names them: the email address when known, else the record name.
  function roleUserLabel(user) { return user.emailAddress || user.userRecordName; }

  function renderRoles() {
    const list = $('roles-list');
    const picker = $('role-assign-role');
    const previous = picker.value;
    picker.replaceChildren(...roles.list.map((role) => element('option', { value: role.name, text: role.name, selected: role.name === previous })));
    const none = roles.list.length === 0;
    for (const id of ['role-assign-role', 'role-assign-user', 'role-assign']) $(id).disabled = none;
    if (none) {
      list.replaceChildren(element('p', { class: 'empty-state', text: roles.failed ? 'The roles could not be listed: see the message above.'
        : 'The schema declares no roles: CREATE ROLE in a .ckdb file (query schema apply).' }));
      return;
    }
    list.replaceChildren(...roles.list.map((role) => {
      const users = role.users || [];
      const heading = element('h3', { tabindex: '-1' }, element('span', { text: role.name }),
        element('span', { class: 'count', text: users.length + (users.length === 1 ? ' user' : ' users') }));
      const body = users.length === 0 ? element('p', { class: 'empty', text: 'Nobody holds ' + role.name + '.' })
        : element('div', { class: 'table-scroll' }, element('table', { class: 'roles-table' },
          element('thead', {}, element('tr', {}, element('th', { text: 'User record name' }), element('th', { text: 'Email address' }),
            element('th', { 'aria-label': 'Actions' }))),
          element('tbody', {}, ...users.map((user) => element('tr', { 'data-user': user.userRecordName },
            element('td', { class: 'record-name', text: user.userRecordName }),
            element('td', { class: user.emailAddress ? null : 'null', text: user.emailAddress || '—' }),
            element('td', { class: 'role-action' }, button('Remove…', { class: 'plain danger role-remove',
              'aria-label': 'Remove ' + role.name + ' from ' + roleUserLabel(user) }, (event) => askRoleChange({
              kind: 'remove', role: role.name, body: { role: role.name, userRecordName: user.userRecordName },
              label: roleUserLabel(user), returnFocus: event.currentTarget,
            }))))))));
      return element('section', { class: 'card role-card', 'data-role': role.name, 'aria-label': 'Role ' + role.name }, heading, body);
    }));
  }

  /// Assign: the role picked and the user typed, confirmed first.
  function requestAssign(event) {
    event.preventDefault();
    hideRolesError();
    const role = $('role-assign-role').value;
    const text = $('role-assign-user').value.trim();
    if (!role) return;
    if (text === '') {
      showRolesError(new Failure('INVALID', 'name the user: their userRecordName or email address'));
      $('role-assign-user').focus();
      return;
    }
    const byEmail = text.includes('@');
    const known = roles.list.flatMap((entry) => entry.users || []).find((user) => user.userRecordName === text);
    askRoleChange({
      kind: 'assign', role, body: byEmail ? { role, emailAddress: text } : { role, userRecordName: text },
      label: byEmail ? text : roleUserLabel(known || { userRecordName: text }), returnFocus: $('role-assign-user'),
    });
  }

  /// Shows what a change will do, and waits for Confirm or Cancel.
  function askRoleChange(change) {
    roles.pending = change;
    const assigning = change.kind === 'assign';
    $('role-confirm-text').textContent = assigning ? 'Give ' + change.role + ' to ' + change.label + '?'
      : 'Take ' + change.role + ' from ' + change.label + '?';
    $('role-confirm-yes').textContent = assigning ? 'Give ' + change.role : 'Remove ' + change.role;
    $('role-confirm').classList.remove('hidden');
    $('role-confirm').dataset.kind = change.kind;
    $('role-confirm-yes').focus();
  }

  function cancelRoleChange() {
    const change = roles.pending;
    roles.pending = null;
    $('role-confirm').classList.add('hidden');
    if (change && change.returnFocus && document.contains(change.returnFocus)) change.returnFocus.focus();
  }

  async function confirmRoleChange() {
    const change = roles.pending;
    if (!change) return;
    roles.pending = null;
    $('role-confirm').classList.add('hidden');
    hideRolesError();
    const view = $('roles-view');
    view.dataset.busy = 'true';
    let entry;
    try {
      entry = await adminCall(change.kind === 'assign' ? 'roles/assign' : 'roles/remove', change.body);
    } catch (failure) {
      showRolesError(failure);
      delete view.dataset.busy;
      view.dataset.changes = String(Number(view.dataset.changes || 0) + 1);
      if (change.returnFocus && document.contains(change.returnFocus)) change.returnFocus.focus();
      return;
    }
    roles.list = roles.list.map((role) => role.name === entry.name ? entry : role);
    renderRoles();
    if (change.kind === 'assign') $('role-assign-user').value = '';
    flash((change.kind === 'assign' ? 'Gave ' + change.role + ' to ' : 'Took ' + change.role + ' from ') + change.label + '.');
    delete view.dataset.busy;
    view.dataset.changes = String(Number(view.dataset.changes || 0) + 1);
    const heading = document.querySelector('#roles-list .role-card[data-role="' + CSS.escape(entry.name) + '"] h3');
    if (change.kind === 'assign') $('role-assign-user').focus(); else if (heading) heading.focus();
  }

  // ---- Tabs and wiring.

  const TABS = ['results', 'plan', 'map', 'schema', 'roles', 'subscriptions', 'telemetry'];

  /// Keys anywhere: Ctrl/Cmd+Enter runs (or saves the record form), Escape closes the record
  /// panel (or cancels a role change), and outside text boxes 1–7 switch tabs and / goes to the
  /// predicate.
  function shortcut(event) {
    if (event.key === 'Tab' && detail.mode) {
      keepFocusInPanel(event);
      return;
    }
    if (event.key === 'Escape' && roles.pending && !detail.mode) {
      event.preventDefault();
      cancelRoleChange();
      return;
    }
    if (event.key === 'Escape' && detail.mode) {
      event.preventDefault();
      if (detail.mode === 'view') closeDetail(); else cancelEdit();
      return;
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      const form = event.target.closest && event.target.closest('#detail-form');
      if (form) form.requestSubmit(); else run();
      return;
    }
    const target = event.target;
    const typing = target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const tab = TABS[Number(event.key) - 1];
    if (tab && !detail.mode) {
      event.preventDefault();
      showTab(tab);
    } else if (event.key === '/') {
      event.preventDefault();
      $('predicate').focus();
    }
  }

  /// Shows a tab; `write` false leaves the address as it is.
  function showTab(name, write = true) {
    state.tab = name;
    for (const button of document.querySelectorAll('.tabs button')) {
      const selected = button.dataset.tab === name;
      button.classList.toggle('selected', selected);
      // One tab in the Tab order, the selected one; the arrows move between them.
      button.setAttribute('aria-selected', selected ? 'true' : 'false');
      button.tabIndex = selected ? 0 : -1;
    }
    for (const panel of document.querySelectorAll('[data-panel]')) panel.classList.toggle('hidden', panel.dataset.panel !== name);
    $('pager').classList.toggle('hidden', name !== 'results' && name !== 'map');
    if (name === 'map') renderMap();
    if (name === 'roles') loadRoles();
    if (name === 'subscriptions') subscriptionsView.load();
    if (name === 'telemetry') telemetryView.load(); else telemetryView.hidden();
    // Widths are measured once the table is shown.
    const table = $('results-table');
    if (name === 'results' && table) stickColumns(table, table.querySelectorAll('thead .sticky-column').length || 2);
    if (write) writeAddress();
  }

  /// The users the administrator may act as: asked for only with an administrator token, or on
  /// a server without credentials (anyone there administers), so that nobody else's page counts
  /// a refused request.
  function loadActing() {
    acting.load(settings.tokenRequired !== 'true' || $('admin-token').value !== '');
  }

  function start() {
    $('container').value = settings.container || '';
    $('environment').value = settings.environment || 'production';
    $('database').value = settings.database || 'public';
    $('rules-info').textContent = 'query.predicate rules: ' + (settings.rules || 'cloudkit');
    if (settings.tokenRequired === 'true') {
      $('token-label').classList.remove('hidden');
      $('api-token').value = sessionStorage.getItem('query-console-token') || '';
      // The administrator token is kept as the API token is: in this tab's session only.
      $('admin-token-label').classList.remove('hidden');
      $('admin-token').value = sessionStorage.getItem('query-console-admin-token') || '';
    }
    window.addEventListener('message', receiveSignIn);
    loadActing();
    $('sign-in').addEventListener('click', signIn);
    $('sign-out').addEventListener('click', signOut);
    $('web-auth-token').addEventListener('change', () => {
      // The pasted token goes to the session's storage, not kept in the box.
      const token = $('web-auth-token').value.trim();
      $('web-auth-token').value = '';
      if (token) startSession(token);
    });
    const predicate = $('predicate');
    predicate.addEventListener('input', predicateChanged);
    predicate.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.ctrlKey && !event.metaKey) { event.preventDefault(); run(); }
      if (event.key === 'ArrowUp' && !event.shiftKey && predicate.selectionStart === 0 && predicate.selectionEnd === 0 || event.key === 'ArrowUp' && predicate.value === '') {
        if (recall()) event.preventDefault();
      }
      if (event.key === 'ArrowDown' && !event.shiftKey && predicate.selectionStart === predicate.value.length) {
        // From the end of the box down to the first row of results.
        const row = document.querySelector('#results-table tbody tr');
        if (row && state.tab === 'results') { event.preventDefault(); row.focus(); }
      }
    });
    predicate.addEventListener('scroll', () => { $('highlight').scrollTop = predicate.scrollTop; });
    $('type-menu').addEventListener('change', () => selectType($('type-menu').value, false));
    $('detail-close').addEventListener('click', closeDetail);
    $('detail-back').addEventListener('click', goBack);
    // A click beside the panel closes it when nothing is being edited.
    $('detail-backdrop').addEventListener('click', () => { if (detail.mode === 'view') closeDetail(); });
    $('new-record').addEventListener('click', () => { if (state.type) newRecord(null); });
    document.addEventListener('keydown', shortcut);
    $('zone').addEventListener('change', () => {
      const value = $('zone').value;
      const slash = value.indexOf('/');
      state.zoneOwner = slash < 0 ? null : value.slice(0, slash);
      state.zone = value.slice(slash + 1);
      run();
      loadCounts();
    });
    for (const button of document.querySelectorAll('.tabs button')) {
      button.addEventListener('keydown', (event) => {
        // The arrows move between tabs, as in any tab list.
        if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
        const names = TABS;
        const next = names[(names.indexOf(button.dataset.tab) + (event.key === 'ArrowRight' ? 1 : names.length - 1)) % names.length];
        showTab(next);
        document.querySelector('.tabs button[data-tab="' + next + '"]').focus();
      });
    }
    $('run').addEventListener('click', run);
    $('export').addEventListener('click', exportRecords);
    $('add-sort').addEventListener('click', addSort);
    $('next').addEventListener('click', () => goToPage(1));
    $('previous').addEventListener('click', () => goToPage(-1));
    $('page-jump').addEventListener('submit', (event) => { event.preventDefault(); jumpToPage(Number($('page-number').value)); });
    $('page-size').addEventListener('change', () => { state.pageSize = Number($('page-size').value); run(); });
    for (const button of document.querySelectorAll('.tabs button')) button.addEventListener('click', () => showTab(button.dataset.tab));
    for (const id of ['container', 'environment', 'database']) $(id).addEventListener('change', loadSchema);
    // The session is the container's; its user is the same in both environments.
    $('container').addEventListener('change', () => { state.identity = null; state.sessionEnded = false; renderSession(); loadIdentity(); });
    $('database').addEventListener('change', renderSession);
    $('api-token').addEventListener('change', () => {
      sessionStorage.setItem('query-console-token', $('api-token').value);
      loadIdentity();
      loadSchema();
    });
    $('admin-token').addEventListener('change', () => {
      sessionStorage.setItem('query-console-admin-token', $('admin-token').value);
      loadActing();
      if (state.tab === 'roles') loadRoles();
      if (state.tab === 'telemetry') telemetryView.load();
    });
    // The roles shown are the environment's; another container or token may see others.
    for (const id of ['container', 'environment', 'api-token']) $(id).addEventListener('change', () => { if (state.tab === 'roles') loadRoles(); });
    $('roles-refresh').addEventListener('click', loadRoles);
    // The subscriptions shown are the database's, as the page's credential sees them.
    for (const id of ['container', 'environment', 'database', 'api-token']) {
      $(id).addEventListener('change', () => { if (state.tab === 'subscriptions') subscriptionsView.load(); });
    }
    $('role-assign-form').addEventListener('submit', requestAssign);
    $('role-confirm-yes').addEventListener('click', confirmRoleChange);
    $('role-confirm-no').addEventListener('click', cancelRoleChange);
    window.addEventListener('resize', () => { if (state.tab === 'map') renderMap(); });
    window.addEventListener('error', (event) => showScriptError(event.error || event.message));
    window.addEventListener('unhandledrejection', (event) => showScriptError(event.reason));
    restoreFromAddress();
    window.addEventListener('popstate', restoreView);
    renderHighlight();
    renderSession();
    checkPredicate();
    loadIdentity();
    loadSchema();
  }

  start();
})();