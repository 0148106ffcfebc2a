'use strict';
// Acting as a user, for the administrator: the header's "Act as" picks one of the server's users
// (users/list, an administration route), and from then on every request to the private and the
// shared database carries `X-Query-Act-As` with that user's record name (and the administrator
// token, when one is given), so the page shows THEIR private and shared databases, read-only.
// A banner says whom the page acts as, with Stop acting (the way back). The server decides who
// may act: only an administrator; to anyone else users/list is refused, and the picker stays
// hidden.
//
// console.js calls `QueryConsoleActing(host)` once, with `adminCall(path)` (a GET of an
// administration route with the administrator token), `changed()` (everything shown is loaded
// again for the new user) and `flash(text)`. It answers `load(ask)` (asks for the users again,
// after the administrator token changed; with `ask` false, forgets them), `user()` (the record name acted as, or ''),
// `name()` (how the page names that user) and `stop()`.

window.QueryConsoleActing = (host) => {
  const { adminCall, changed, flash } = host;
  const $ = (id) => document.getElementById(id);
  /// The users the administrator may act as, by record name.
  let users = [];
  let sequence = 0;

  function nameOf(user) {
    const parts = [user.firstName, user.lastName].filter(Boolean);
    if (parts.length > 0) return parts.join(' ');
    return user.emailAddress || user.userRecordName;
  }

  function user() { return $('act-as').value; }

  function name() {
    const picked = users.find((candidate) => candidate.userRecordName === user());
    return picked ? nameOf(picked) : user();
  }

  /// The users, asked of the server (not when `ask` is false: no administrator credential):
  /// shown only to an administrator who has any to act as.
  async function load(ask) {
    const current = ++sequence;
    let answer = { users: [] };
    try {
      if (ask !== false) answer = await adminCall('users/list');
    } catch (_) {
      answer = { users: [] };
    }
    if (current !== sequence) return;
    users = answer.users || [];
    const select = $('act-as');
    const kept = users.some((candidate) => candidate.userRecordName === select.value) ? select.value : '';
    select.replaceChildren(new Option('yourself', ''),
      ...users.map((candidate) => new Option(nameOf(candidate) + ' (' + candidate.userRecordName + ')', candidate.userRecordName)));
    select.value = kept;
    $('act-as-label').classList.toggle('hidden', users.length === 0);
    if (kept === '' && document.body.dataset.actingAs) pick();
  }

  /// The user picked: the banner, the private database when the page showed the public one, and
  /// everything loaded again.
  function pick() {
    const acting = user();
    document.body.dataset.actingAs = acting;
    $('acting-banner').classList.toggle('hidden', acting === '');
    $('acting-text').textContent = acting === '' ? ''
      : 'Acting as ' + name() + ' (' + acting + '): their private and shared databases, read-only.';
    if (acting !== '' && $('database').value === 'public') {
      $('database').value = 'private';
      $('database').dispatchEvent(new Event('change'));
    }
    changed();
    flash(acting === '' ? 'Stopped acting as a user' : 'Acting as ' + name());
  }

  function stop() {
    if (user() === '') return;
    $('act-as').value = '';
    pick();
    $('act-as').focus();
  }

  $('act-as').addEventListener('change', pick);
  $('acting-stop').addEventListener('click', stop);
  return { load, user, name, stop };
};
