import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/router';
import { getLocale } from './lib/i18n';
import './index.css';

document.documentElement.lang = getLocale();

const root = document.getElementById('root');
if (!root) throw new Error('#root not found in index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
