// A finished task's receipt: the service's signed statement of who asked, who answered, the input's and
// result's fingerprints, the final status and what was paid. Anyone can check it against the published
// keys (/.well-known/jwks.json) or with POST /v1/receipts/verify; it holds neither input nor result.
export function TaskReceipt({ taskId, receipt }: { taskId: string; receipt: string }) {
  // Saved from what the page already has, through a Blob: nothing is fetched again.
  function download() {
    const url = URL.createObjectURL(new Blob([receipt], { type: 'application/jose' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `receipt-${taskId}.jws`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <section aria-labelledby="receipt">
      <h2 id="receipt">Receipt</h2>
      <p className="muted">
        Signed by the service when the task finished. Anyone can check it with the keys at <span className="mono">/.well-known/jwks.json</span> or by
        sending it to <span className="mono">POST /v1/receipts/verify</span>; it names the task, the agent, you, the fingerprints of input and result, the
        final status and the amount settled, never the input or result themselves.
      </p>
      <div className="buttons">
        <button type="button" onClick={download}>
          Download receipt
        </button>
      </div>
      <details className="receipt-details">
        <summary>Show the receipt</summary>
        <p className="mono small receipt-text">{receipt}</p>
      </details>
    </section>
  );
}
