// The page the sign-in callback answers in a window the app opened: hands the app its web auth
// token (CloudKit JS listens for { ckSession, ckWebAuthToken }) and closes. The token goes to
// the app's origin only, never to "*".
(function () {
  "use strict";
  var data = document.body.dataset;
  var status = document.getElementById("status");
  if (window.opener && data.origin) {
    window.opener.postMessage({ ckSession: data.token, ckWebAuthToken: data.token }, data.origin);
    status.textContent = "Signed in. This window closes itself.";
    window.close();
  } else {
    status.textContent = "Signed in, but the app that asked is gone: close this window and sign in again from the app.";
  }
})();
