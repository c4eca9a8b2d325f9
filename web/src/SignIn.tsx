import { useState } from 'preact/hooks';
import { tokenShapeError } from './address.js';

/** A token pasted once; kept in this tab's session storage only. */
export function SignIn({ onToken, error }: { onToken: (t: string) => void; error: string | null }) {
  const [value, setValue] = useState('');
  const [shape, setShape] = useState<string | null>(null);
  const submit = () => {
    const t = value.trim();
    if (!t) return;
    const why = tokenShapeError(t);
    setShape(why);
    if (!why) onToken(t);
  };
  return (
    <main class="center">
      <form class="card signin" onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <h1>Engram</h1>
        <p>Paste an <strong>operator</strong> token to look after a person's memories.
          It is kept in this tab only, until the tab is closed.</p>
        <label for="token">Token</label>
        <input id="token" name="token" type="password" autocomplete="off" value={value}
          onInput={(e) => { setValue((e.target as HTMLInputElement).value); setShape(null); }} />
        {(shape ?? error) && <p class="error" role="alert">{shape ?? error}</p>}
        <button type="submit" class="primary" disabled={!value.trim()}>Sign in</button>
      </form>
    </main>
  );
}
