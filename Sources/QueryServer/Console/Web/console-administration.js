'use strict';
// The console's administration of the development schema, in the Schema tab: add a field or an
// index type to a record type (schema/fields/add), remove an index type (schema/indexes/remove),
// deploy the development schema to production (schema/deploy), and reset the development
// environment (schema/reset: its zones and records deleted, its schema production's again). Every change is first asked
// of the server as a dry run ("dryRun": true), whose plan (what changes, and what the target
// refuses) a modal dialog shows; only Apply sends it again for real. The plan is the server's:
// nothing here decides what a change does.
//
// console.js calls `QueryConsoleAdministration(host)` once, with what it needs from the page:
// `call(path, body)` (an administration route of the environment picked, with the
// administrator token), `element(name, attributes, ...children)`, `failureNodes(failure)`,
// `schema()` (the record types as the schema route answers them), `environment()`,
// `reload()` (the schema loaded and drawn again), `flash(text)` and `keepFocusInside(dialog, event)`
// (Tab goes round inside the dialog). It answers
// `decorate(view)`, which adds the controls to the drawn schema view.

window.QueryConsoleAdministration = (host) => {
  const { call, element, failureNodes, schema, environment, reload, flash, keepFocusInside } = host;
  const $ = (id) => document.getElementById(id);
  const TYPES = ['STRING', 'INT64', 'DOUBLE', 'TIMESTAMP', 'BYTES', 'LOCATION', 'REFERENCE',
    'STRING_LIST', 'INT64_LIST', 'DOUBLE_LIST', 'TIMESTAMP_LIST', 'BYTES_LIST', 'LOCATION_LIST', 'REFERENCE_LIST'];
  const INDEXES = ['queryable', 'sortable', 'searchable'];
  /// The change the dialog shows: `{ route, body, title, apply, returnFocus, plan }` (`plan`: how
  /// the route's answer reads as a plan, when it is not one), or null.
  let pending = null;
  let applied = 0;

  function button(text, attributes, action) {
    const node = element('button', { type: 'button', class: 'plain', text, ...attributes });
    node.addEventListener('click', action);
    return node;
  }

  /// The controls of the schema view: in development, the form that adds a field or index
  /// types, a remove button beside each index, and Deploy; in production, where to go instead.
  function decorate(view) {
    if (environment() !== 'development') {
      view.prepend(element('p', { id: 'schema-admin-hint', class: 'hint' },
        'The schema is changed in the development environment, then deployed to production: pick development to add fields and indexes.'));
      return;
    }
    for (const flag of view.querySelectorAll('tr[data-field] .flag')) {
      const row = flag.closest('tr');
      const recordType = row.closest('[data-type]').dataset.type;
      const index = flag.textContent;
      flag.after(button('×', { class: 'plain index-remove', 'data-index': index,
        title: 'Remove the ' + index + ' index of ' + recordType + '.' + row.dataset.field,
        'aria-label': 'Remove the ' + index + ' index of ' + recordType + '.' + row.dataset.field }, (event) => preview({
        route: 'schema/indexes/remove', body: { recordType, fieldName: row.dataset.field, indexes: [index] },
        title: 'Remove an index in development', apply: 'Remove index', returnFocus: event.currentTarget,
      })));
    }
    view.prepend(adminCard());
  }

  function adminCard() {
    const types = schema().map((type) => type.recordType);
    const form = element('form', { id: 'schema-field-form', novalidate: true },
      element('label', { class: 'label' }, 'Record type ', element('select', { id: 'schema-field-type', class: 'plain' },
        ...types.map((name) => element('option', { value: name, text: name })))),
      element('label', { class: 'label' }, 'Field ', element('input', { id: 'schema-field-name', autocomplete: 'off', spellcheck: 'false',
        autocapitalize: 'off', placeholder: 'a new or existing field' })),
      element('label', { class: 'label' }, 'Type ', element('select', { id: 'schema-field-kind', class: 'plain' },
        element('option', { value: '', text: 'the field’s own' }), ...TYPES.map((name) => element('option', { value: name, text: name })))),
      element('span', { class: 'schema-indexes', role: 'group', 'aria-label': 'Index types' }, ...INDEXES.map((index) =>
        element('label', { class: 'label' }, element('input', { type: 'checkbox', id: 'schema-field-' + index, value: index }), ' ' + index))),
      element('button', { id: 'schema-field-add', class: 'primary', type: 'submit', text: 'Add…' }));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = { recordType: $('schema-field-type').value, fieldName: $('schema-field-name').value.trim(),
        indexes: INDEXES.filter((index) => $('schema-field-' + index).checked) };
      if ($('schema-field-kind').value) body.type = $('schema-field-kind').value;
      preview({ route: 'schema/fields/add', body, title: 'Add to the development schema', apply: 'Add', returnFocus: $('schema-field-add') });
    });
    const deploy = button('Deploy to production…', { id: 'schema-deploy' }, (event) => preview({
      route: 'schema/deploy', body: {}, title: 'Deploy the development schema to production', apply: 'Deploy', returnFocus: event.currentTarget,
    }));
    const reset = button('Reset development…', { id: 'schema-reset' }, (event) => preview({
      route: 'schema/reset', body: {}, title: 'Reset the development environment', apply: 'Reset development', returnFocus: event.currentTarget,
      plan: resetPlan,
    }));
    return element('section', { id: 'schema-admin', class: 'card', 'aria-labelledby': 'schema-admin-title' },
      element('div', { class: 'roles-head' }, element('h3', { id: 'schema-admin-title', tabindex: '-1', text: 'Development schema' }),
        element('span', { class: 'hint', text: 'Each change shows its plan first; nothing changes until you apply it.' }),
        element('span', { class: 'spacer' }), deploy, reset),
      form,
      element('div', { id: 'schema-admin-error', class: 'hidden', role: 'alert' }),
      element('p', { id: 'schema-admin-status', role: 'status', class: 'hint' }));
  }

  function showError(box, failure) {
    box.replaceChildren(...failureNodes(failure));
    box.classList.remove('hidden');
  }

  /// Asks the server for the change's plan, and shows it in the dialog.
  async function preview(change) {
    const error = $('schema-admin-error');
    if (error) error.classList.add('hidden');
    let plan;
    try {
      plan = await call(change.route, { ...change.body, dryRun: true });
    } catch (failure) {
      if (error) showError(error, failure);
      return;
    }
    pending = change;
    openDialog(change, plan);
  }

  /// What schema/reset's answer deletes, as a plan: each record type's records, each zone, each
  /// record type and field production lacks.
  function resetPlan(answer) {
    const records = answer.records || {};
    const changes = [
      ...Object.keys(records).sort().map((type) => '− ' + records[type] + ' ' + type + (records[type] === 1 ? ' record' : ' records')),
      ...(answer.zones || []).map((zone) => '− zone ' + zone),
      ...(answer.recordTypesNotInProduction || []).map((type) => '− record type ' + type + ' (not in production)'),
      ...(answer.fieldsNotInProduction || []).map((field) => '− field ' + field + ' (not in production)'),
    ];
    return { environment: 'development', changes, refused: [],
      summary: changes.length === 0 ? 'The development environment is empty, its schema production’s: nothing would go.'
        : 'Everything of the development environment goes, exactly this, and its schema becomes production’s:' };
  }

  function openDialog(change, answer) {
    const plan = change.plan ? change.plan(answer) : answer;
    const changes = plan.changes || [];
    const refused = plan.refused || [];
    $('admin-dialog-title').textContent = change.title;
    $('admin-dialog-summary').textContent = plan.summary ? plan.summary : refused.length > 0
      ? 'The ' + plan.environment + ' schema refuses this: nothing can be applied.'
      : changes.length === 0 ? 'The ' + plan.environment + ' schema has this already: nothing would change.'
        : 'The ' + plan.environment + ' schema will change exactly so:';
    $('admin-dialog-changes').replaceChildren(...changes.map((text) => element('li', { text })));
    $('admin-dialog-changes').classList.toggle('hidden', changes.length === 0);
    $('admin-dialog-refused-list').replaceChildren(...refused.map((text) => element('li', { text })));
    $('admin-dialog-refused').classList.toggle('hidden', refused.length === 0);
    $('admin-dialog-error').classList.add('hidden');
    const apply = $('admin-dialog-apply');
    apply.textContent = change.apply;
    apply.classList.toggle('danger-primary', Boolean(change.plan));
    apply.disabled = changes.length === 0 || refused.length > 0;
    setInert(true);
    $('admin-dialog').classList.remove('hidden');
    (apply.disabled ? $('admin-dialog-cancel') : apply).focus();
  }

  /// While the dialog is open the page behind it is inert (no click, no focus, hidden from
  /// assistive technology), as behind the record panel.
  function setInert(inert) {
    for (const region of document.querySelectorAll('body > header, body > main')) region.inert = inert;
    $('admin-backdrop').classList.toggle('hidden', !inert);
  }

  function closeDialog() {
    const change = pending;
    pending = null;
    $('admin-dialog').classList.add('hidden');
    setInert(false);
    const back = change && change.returnFocus && document.contains(change.returnFocus) ? change.returnFocus : $('schema-admin-title');
    if (back) back.focus();
  }

  async function applyChange() {
    const change = pending;
    if (!change) return;
    const dialog = $('admin-dialog');
    dialog.dataset.busy = 'true';
    $('admin-dialog-apply').disabled = true;
    let plan;
    try {
      const answer = await call(change.route, { ...change.body, dryRun: false });
      plan = change.plan ? change.plan(answer) : answer;
    } catch (failure) {
      delete dialog.dataset.busy;
      showError($('admin-dialog-error'), failure);
      $('admin-dialog-cancel').focus();
      return;
    }
    delete dialog.dataset.busy;
    pending = null;
    $('admin-dialog').classList.add('hidden');
    setInert(false);
    await reload();
    applied += 1;
    const text = change.plan ? 'Development reset: ' + ((plan.changes || []).length) + ' deletions, its schema production’s'
      : 'Applied to ' + plan.environment + ': ' + ((plan.changes || []).join('; ') || 'nothing changed');
    const status = $('schema-admin-status');
    if (status) status.textContent = text;
    document.body.dataset.schemaChanges = String(applied);
    flash(text);
    const back = $('schema-admin-title');
    if (back) back.focus();
  }

  /// Tab and Shift+Tab go round inside the dialog; Escape cancels; no other key reaches the
  /// page's shortcuts.
  function keydown(event) {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      closeDialog();
      return;
    }
    if (event.key === 'Tab') keepFocusInside($('admin-dialog'), event);
  }

  $('admin-dialog').addEventListener('keydown', keydown);
  $('admin-dialog-apply').addEventListener('click', applyChange);
  $('admin-dialog-cancel').addEventListener('click', closeDialog);

  return { decorate };
};
