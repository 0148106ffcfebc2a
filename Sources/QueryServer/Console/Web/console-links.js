'use strict';
// The console's links between records. A reference shows as a link naming its record and the
// record's type ("→ Department dept-marketing"), which opens that record in the record panel; a
// record's panel lists the records that point at it: its type's inverse to-manys (a
// department's employees) and the relationships of other types that lead to it, each a link.
// The types come from the schema route's `relationships`; a reference the schema does not
// declare is named with the type records/lookup answers for it.
//
// console.js calls `QueryConsoleLinks(host)` once, with what it needs from the page:
// `call(path, body)`, `element(name, attributes, ...children)`, `zoneBody()`, `schema()` (the
// record types as the schema route answers them) and `open(recordName, recordType, from)`.

window.QueryConsoleLinks = (host) => {
  const { call, element, zoneBody, schema, open } = host;
  /// How many records a list of related records shows.
  const RELATED_LIMIT = 50;

  function typeSchema(name) { return schema().find((type) => type.recordType === name) || null; }

  /// The type a reference field's records have, as its type's relationship declares it (a
  /// to-one or a reference list); '' when none does.
  function destination(recordType, fieldName) {
    const type = typeSchema(recordType);
    const relationship = type && (type.relationships || []).find((candidate) => candidate.name === fieldName && candidate.kind !== 'toMany');
    return relationship ? relationship.destination : '';
  }

  /// A record as a link: "→ Department dept-marketing" (without a type when it is not known),
  /// and its name or title after it when given.
  function link(recordName, recordType, label) {
    const node = element('button', { type: 'button', class: 'link reference', 'data-record-name': recordName,
      'data-record-type': recordType || null, title: 'Open ' + (recordType ? recordType + ' ' : '') + recordName },
    element('span', { class: 'link-target', text: '→ ' + (recordType ? recordType + ' ' : '') + recordName }),
    label ? element('span', { class: 'link-label', text: ' · ' + label }) : null);
    // A link in a row opens its record, not the row's.
    node.addEventListener('click', (event) => { event.stopPropagation(); open(recordName, node.dataset.recordType || '', node); });
    node.addEventListener('keydown', (event) => { if (event.key === 'Enter' || event.key === ' ') event.stopPropagation(); });
    return node;
  }

  /// A reference value (`{recordName, zoneID?}`) of a field of a record type, as a link.
  function referenceLink(value, recordType, fieldName) {
    return link((value && value.recordName) || '', destination(recordType, fieldName));
  }

  /// What a record says it is: its `name` or `title` when it has one as text.
  function recordLabel(record) {
    const fields = record.fields || {};
    for (const name of ['name', 'title']) if (fields[name] && typeof fields[name].value === 'string') return fields[name].value;
    return '';
  }

  /// The links of a container whose type is not known yet get it from records/lookup (one
  /// request); a link to a record that is not there says so.
  async function resolveTypes(container) {
    const links = [...container.querySelectorAll('.reference:not([data-record-type])')];
    const names = [...new Set(links.map((node) => node.dataset.recordName).filter(Boolean))];
    if (names.length === 0) return;
    let answer;
    try {
      answer = await call('records/lookup', { records: names.map((recordName) => ({ recordName })), ...zoneBody() });
    } catch (_) {
      return;  // The links stay without a type.
    }
    const found = new Map();
    for (const record of answer.records || []) if (record.recordName) found.set(record.recordName, record);
    for (const node of links) {
      const record = found.get(node.dataset.recordName);
      const target = node.querySelector('.link-target');
      if (record && !record.serverErrorCode && record.recordType) {
        node.dataset.recordType = record.recordType;
        target.textContent = '→ ' + record.recordType + ' ' + node.dataset.recordName;
        node.title = 'Open ' + record.recordType + ' ' + node.dataset.recordName;
      } else {
        node.classList.add('missing');
        target.textContent = '→ ' + node.dataset.recordName + ' (not found)';
      }
    }
  }

  /// What points at a record of a type: the type's inverse to-manys, then the relationships of
  /// other types that lead to it and that no inverse of its own names.
  function incoming(recordType) {
    const isList = (type, field) => ((typeSchema(type) || { fields: [] }).fields.find((candidate) => candidate.fieldName === field) || {})
      .type === 'REFERENCE_LIST';
    const found = [];
    for (const relationship of (typeSchema(recordType) || {}).relationships || []) {
      if (relationship.kind !== 'toMany' || !relationship.inverse) continue;
      found.push({ name: relationship.name, recordType: relationship.destination, field: relationship.inverse,
        list: isList(relationship.destination, relationship.inverse) });
    }
    for (const type of schema()) {
      for (const relationship of type.relationships || []) {
        if (relationship.kind === 'toMany' || relationship.destination !== recordType) continue;
        if (found.some((entry) => entry.recordType === type.recordType && entry.field === relationship.name)) continue;
        found.push({ name: type.recordType + '.' + relationship.name, recordType: type.recordType, field: relationship.name,
          list: relationship.kind === 'referenceList' });
      }
    }
    return found;
  }

  /// The records of `entry` that point at `record` (the first RELATED_LIMIT, by record name).
  async function related(entry, record) {
    const filter = { comparator: entry.list ? 'LIST_CONTAINS' : 'EQUALS', fieldName: entry.field,
      fieldValue: { value: { recordName: record.recordName, action: 'NONE' }, type: 'REFERENCE' } };
    const answer = await call('records/query', { query: { recordType: entry.recordType, filterBy: [filter],
      sortBy: [{ systemFieldName: 'recordName', ascending: true }] }, resultsLimit: RELATED_LIMIT, ...zoneBody() });
    return { records: answer.records || [], more: !!answer.continuationMarker };
  }

  /// The panel's "Related records": one list per relationship that leads to the record, filled
  /// as the answers come (`data-loaded` is set when every list is); null when none leads to it.
  function relatedSection(record) {
    const entries = incoming(record.recordType);
    if (entries.length === 0) return null;
    const section = element('section', { id: 'detail-related', 'aria-label': 'Related records', 'data-loaded': 'false' },
      element('h3', { text: 'Related records' }));
    const pending = entries.map(async (entry) => {
      const count = element('span', { class: 'count', text: 'loading…' });
      const list = element('ul', { class: 'related-list' });
      const group = element('div', { class: 'related', 'data-relationship': entry.name },
        element('h4', {}, element('span', { text: entry.name }), ' ',
          element('span', { class: 'hint', text: entry.recordType + ' records whose ' + entry.field + (entry.list ? ' include' : ' is') + ' this record' }),
          ' ', count),
        list);
      section.append(group);
      try {
        const { records, more } = await related(entry, record);
        count.textContent = more ? 'the first ' + records.length : records.length + (records.length === 1 ? ' record' : ' records');
        if (records.length === 0) list.replaceWith(element('p', { class: 'empty', text: 'None.' }));
        list.append(...records.map((found) => element('li', {}, link(found.recordName, found.recordType || entry.recordType, recordLabel(found)))));
      } catch (failure) {
        count.textContent = '';
        list.replaceWith(element('p', { class: 'empty', text: 'Not listed: ' + (failure.code || '') + ' ' + (failure.reason || failure.message) }));
      }
    });
    Promise.all(pending).then(() => { section.dataset.loaded = 'true'; });
    return section;
  }

  return { destination, link, referenceLink, resolveTypes, relatedSection };
};
