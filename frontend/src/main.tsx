import { render } from 'preact';
import { App } from './app';
import { restore } from './session';
import './styles.css';

restore();
render(<App />, document.getElementById('app')!);
