// The invite's "Share the link": the phone's share sheet where the browser has one, else the
// link is copied, and the page says so ("Link copied") next to the button, in the phone's
// language (templates/app_texts.html).
(function () {
  "use strict";

  function words(key) {
    const holder = document.getElementById("app-texts");
    return (holder && holder.dataset[key]) || "";
  }

  function say(button, text) {
    const done = button.parentElement.querySelector(".share-done");
    if (!done) return;
    done.textContent = text;
    window.clearTimeout(done.clearing);
    done.clearing = window.setTimeout(() => { done.textContent = ""; }, 6000);
  }

  // The clipboard API needs a secure context, which a LAN address over http is not: then the
  // older copy command on a selected, off-screen field does it.
  function copy(url) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(url).then(() => true, () => copyBySelection(url));
    }
    return Promise.resolve(copyBySelection(url));
  }

  function copyBySelection(url) {
    const field = document.createElement("textarea");
    field.value = url;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.left = "-9999px";
    document.body.appendChild(field);
    field.select();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    field.remove();
    return copied;
  }

  function copyAndSay(button, url) {
    copy(url).then((copied) => {
      say(button, words(copied ? "copied" : "copyRefused"));
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-share-url]");
    if (!button) return;
    const url = button.dataset.shareUrl;
    if (navigator.share) {
      navigator.share({ title: button.dataset.shareTitle, text: button.dataset.shareTitle, url: url })
        .then(() => say(button, words("shared")))
        .catch((error) => {
          // Closing the share sheet is a choice, not a failure; anything else: copy instead.
          if (error && error.name === "AbortError") return;
          copyAndSay(button, url);
        });
      return;
    }
    copyAndSay(button, url);
  });
})();
