'use strict';
// The console's Subscriptions tab: the subscriptions of the database picked (subscriptions/list),
// one row each (its ID, type, record type, filter, what it fires on and its zone), and Delete,
// confirmed first in a modal dialog, then sent as any client sends it (subscriptions/modify with a
// delete operation). The requests go with the console's own credential, as record edits do:
// listing is reading, which an API token may; deleting is writing, which needs a signed-in user
// (or a server without credentials), and the server says so when it refuses.
//
// console.js calls `QueryConsoleSubscriptions(host)` once, with what it needs from the page:
// `call(path, body)` (a route of the database picked), `element(name, attributes, ...children)`,
// `failureNodes(failure)`, `scope()` (the environment and database, as the page names them),
// `flash(text)` and `keepFocusInside(dialog, event)` (Tab goes round inside the dialog). It
// answers `load()` (asks the server and draws; the tab calls it when shown) and `pending()`
// (whether the dialog is open).

window.QueryConsoleSubscriptions = (host) => {
  const { call, element, failureNodes, scope, flash, keepFocusInside } = host;
  const $ = (id) => document.getElementById(id);
  const COLUMNS = ['Subscription ID', 'Type', 'Record type', 'Filter', 'Fires on', 'Zone'];
  /// The subscriptions listed, the one the dialog asks about (`{ subscriptionID, returnFocus }`),
  /// and the loads and deletions made (for whoever waits on them).
  const subscriptions = { list: [], failed: false, pending: null, loads: 0, changes: 0, sequence: 0 };

  // ---- A subscription as the table writes it.

  function valueText(fieldValue) {
    const value = fieldValue && typeof fieldValue === 'object' && 'value' in fieldValue ? fieldValue.value : fieldValue;
    return JSON.stringify(value);
  }

  /// A query subscription's filter: its predicate (this server's extension) and each `filterBy`
  /// comparison, as sent; every record when it has none.
  function filterText(query) {
    const parts = [];
    if (query.predicate) parts.push(query.predicate);
    for (const filter of query.filterBy || []) parts.push(filter.fieldName + ' ' + filter.comparator + ' ' + valueText(filter.fieldValue));
    return parts.length > 0 ? parts.join(' AND ') : 'every record';
  }

  /// The cells of one subscription, in the order of COLUMNS; null for what its type has not.
  function cells(subscription) {
    const query = subscription.subscriptionType === 'query' ? subscription.query || {} : null;
    const firesOn = query ? (subscription.firesOn || []).join(', ') + (subscription.firesOnce ? ' (once)' : '') : null;
    const zone = subscription.zoneID && subscription.zoneID.zoneName;
    return [subscription.subscriptionID, subscription.subscriptionType || '', query ? query.recordType || '' : null,
      query ? filterText(query) : null, firesOn, zone || (subscription.subscriptionType === 'database' ? 'every zone' : null)];
  }

  // ---- Loading and drawing.

  function showError(failure) {
    const box = $('subscriptions-error');
    box.replaceChildren(...failureNodes(failure));
    box.classList.remove('hidden');
  }

  async function load() {
    const sequence = ++subscriptions.sequence;
    const view = $('subscriptions-view');
    view.dataset.busy = 'true';
    $('subscriptions-scope').textContent = 'The ' + scope() + ': the subscriptions your credential sees.';
    let answer = null;
    let failure = null;
    try { answer = await call('subscriptions/list'); } catch (error) { failure = error; }
    if (sequence !== subscriptions.sequence) return;
    subscriptions.failed = !!failure;
    subscriptions.list = failure ? [] : answer.subscriptions || [];
    if (failure) showError(failure); else $('subscriptions-error').classList.add('hidden');
    render();
    subscriptions.loads += 1;
    view.dataset.loads = String(subscriptions.loads);
    delete view.dataset.busy;
  }

  function render() {
    const list = $('subscriptions-list');
    const count = subscriptions.list.length;
    $('subscriptions-count').textContent = subscriptions.failed ? '' : count + (count === 1 ? ' subscription' : ' subscriptions');
    if (count === 0) {
      list.replaceChildren(element('p', { class: 'empty-state', text: subscriptions.failed ? 'The subscriptions could not be listed: see the message above.'
        : 'This database has no subscriptions: a client makes them with subscriptions/modify.' }));
      return;
    }
    const rows = subscriptions.list.map((subscription) => {
      const id = subscription.subscriptionID;
      const remove = element('button', { type: 'button', class: 'plain danger subscription-delete', text: 'Delete…',
        'aria-label': 'Delete the subscription ' + id });
      remove.addEventListener('click', (event) => ask(id, event.currentTarget));
      return element('tr', { 'data-subscription': id },
        ...cells(subscription).map((text, index) => element('td', {
          class: [index === 0 || index === 3 ? 'code' : '', text === null ? 'null' : ''].filter(Boolean).join(' ') || null,
          text: text === null ? '—' : text })),
        element('td', { class: 'subscription-action' }, remove));
    });
    list.replaceChildren(element('div', { class: 'table-scroll' }, element('table', { id: 'subscriptions-table', class: 'subscriptions-table' },
      element('caption', { class: 'visually-hidden', text: 'Subscriptions of the ' + scope() }),
      element('thead', {}, element('tr', {}, ...COLUMNS.map((text) => element('th', { scope: 'col', text })),
        element('th', { scope: 'col' }, element('span', { class: 'visually-hidden', text: 'Actions' })))),
      element('tbody', {}, ...rows))));
  }

  // ---- Deleting, confirmed in a modal dialog.

  /// While the dialog is open the page behind it is inert (no click, no focus, hidden from
  /// assistive technology), as behind the record panel.
  function setInert(inert) {
    for (const region of document.querySelectorAll('body > header, body > main')) region.inert = inert;
    $('subscription-backdrop').classList.toggle('hidden', !inert);
  }

  function ask(subscriptionID, returnFocus) {
    subscriptions.pending = { subscriptionID, returnFocus };
    $('subscription-dialog-title').textContent = 'Delete the subscription ' + subscriptionID + '?';
    $('subscription-dialog-summary').textContent = 'The ' + scope() + ' stops notifying its clients of it, at once and for good: '
      + 'a client that wants it back creates it again.';
    $('subscription-dialog-error').classList.add('hidden');
    $('subscription-dialog-delete').disabled = false;
    setInert(true);
    $('subscription-dialog').classList.remove('hidden');
    $('subscription-dialog-cancel').focus();
  }

  function close() {
    const change = subscriptions.pending;
    subscriptions.pending = null;
    $('subscription-dialog').classList.add('hidden');
    setInert(false);
    const back = change && change.returnFocus && document.contains(change.returnFocus) ? change.returnFocus : $('subscriptions-title');
    back.focus();
  }

  async function confirmDelete() {
    const change = subscriptions.pending;
    if (!change) return;
    const dialog = $('subscription-dialog');
    dialog.dataset.busy = 'true';
    $('subscription-dialog-delete').disabled = true;
    let failure = null;
    try {
      const answer = await call('subscriptions/modify', { operations: [{ operationType: 'delete', subscription: { subscriptionID: change.subscriptionID } }] });
      const entry = (answer.subscriptions || [])[0];
      if (!entry || entry.serverErrorCode) failure = { code: entry ? entry.serverErrorCode : 'ERROR', reason: entry ? entry.reason : 'no answer' };
    } catch (error) {
      failure = error;
    }
    delete dialog.dataset.busy;
    if (failure) {
      const box = $('subscription-dialog-error');
      box.replaceChildren(...failureNodes(failure));
      box.classList.remove('hidden');
      $('subscription-dialog-cancel').focus();
      subscriptions.changes += 1;
      $('subscriptions-view').dataset.changes = String(subscriptions.changes);
      return;
    }
    subscriptions.pending = null;
    dialog.classList.add('hidden');
    setInert(false);
    await load();
    const text = 'Deleted the subscription ' + change.subscriptionID + '.';
    $('subscriptions-status').textContent = text;
    flash(text);
    subscriptions.changes += 1;
    $('subscriptions-view').dataset.changes = String(subscriptions.changes);
    $('subscriptions-title').focus();
  }

  /// Tab and Shift+Tab go round inside the dialog; Escape cancels; no other key reaches the
  /// page's shortcuts.
  function keydown(event) {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key === 'Tab') keepFocusInside($('subscription-dialog'), event);
  }

  $('subscription-dialog').addEventListener('keydown', keydown);
  $('subscription-dialog-delete').addEventListener('click', confirmDelete);
  $('subscription-dialog-cancel').addEventListener('click', close);
  $('subscriptions-refresh').addEventListener('click', () => {
    $('subscriptions-status').textContent = '';
    load();
  });

  return { load, pending: () => subscriptions.pending !== null };
};
