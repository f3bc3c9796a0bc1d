// The page of a sign-in link: send its form at once (a link checker that only fetches the page spends nothing).
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-auto-submit]");
  if (form) form.submit();
});
