import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** A destructive confirmation: says what will be lost for good, the red button names the count. */
export function Confirm({ title, children, confirmLabel, onConfirm, onCancel, busy }: {
  title: string; children: ComponentChildren; confirmLabel: string; busy?: boolean;
  onConfirm: () => void; onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => { cancel.current?.focus(); }, []);
  return (
    <div class="overlay" onKeyDown={(e) => { if (e.key === 'Escape') onCancel(); }}>
      <div class="dialog danger" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title" data-testid="confirm">
        <h2 id="confirm-title">{title}</h2>
        <div class="dialog-body">{children}</div>
        <div class="buttons">
          <button type="button" ref={cancel} onClick={onCancel} disabled={busy}>Cancel</button>
          <button type="button" class="destructive" onClick={onConfirm} disabled={busy} data-testid="confirm-destructive">
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
