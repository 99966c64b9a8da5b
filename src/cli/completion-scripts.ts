/**
 * Shell completion scripts for bash, zsh and fish, from the command tree: its subcommands, their
 * long flags, and for `--scope`, `--exclude-scope` and `--replace` the TYPE/ID keys the policy
 * files under the current directory declare (the script asks `autojoin-sync completion --list-scopes`
 * when it completes one, so the list follows the files). Pure: tree in, text out.
 *
 * Every word the policy files give (a scope id such as `x$(touch f)` is valid) is data: no script
 * passes one where the shell would expand it (bash's `compgen -W` expands `$(…)` and backticks),
 * and each is offered quoted as its shell reads it back (bash `printf %q`, zsh's and fish's own
 * quoting of a completion), so accepting one runs nothing either.
 */

/** What a script completes: each subcommand with its summary and long flags. */
export interface CompletionTree {
  commands: { name: string; summary: string; flags: string[] }[];
  /** Flags every command takes (--quiet, --verbose, --no-color, -C, --project, --help), before or after the command. */
  globalFlags: string[];
  /** Those of them that take a value (-C DIR, --project FILE): the next word is no command. */
  globalValueFlags?: string[];
}

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

/** Flags whose value is a scope key. */
export const SCOPE_FLAGS = ['--scope', '--exclude-scope', '--replace'] as const;
const LIST_SCOPES = 'autojoin-sync completion --list-scopes 2>/dev/null';

/** @returns the completion script for `shell`. */
export function completionScript(shell: Shell, tree: CompletionTree): string {
  if (shell === 'bash') return bashScript(tree);
  return shell === 'zsh' ? zshScript(tree) : fishScript(tree);
}

function flagsOf(tree: CompletionTree, command: CompletionTree['commands'][number]): string {
  return [...command.flags, ...tree.globalFlags].join(' ');
}

function bashScript(tree: CompletionTree): string {
  const valueFlags = (tree.globalValueFlags ?? []).length > 0 ? (tree.globalValueFlags ?? []).join('|') : '--no-such-flag';
  const cases = tree.commands.map((command) => `    ${command.name}) opts="${flagsOf(tree, command)}" ;;`).join('\n');
  return `# autojoin-sync completion for bash: add to ~/.bashrc
#   source <(autojoin-sync completion bash)
_autojoin_sync() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" opts="" command="" i
  # The command is the first word that is no flag and no global flag's value (-C DIR may come first).
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in
      ${valueFlags}) (( i++ )) ;;
      -*) ;;
      *) command="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  case "$prev" in
    ${valueFlags})
      COMPREPLY=( $(compgen -f -- "$cur") )
      return ;;
  esac
  if [ -z "$command" ]; then
    COMPREPLY=( $(compgen -W "${tree.commands.map((c) => c.name).join(' ')} ${tree.globalFlags.join(' ')}" -- "$cur") )
    return
  fi
  case "$prev" in
    ${SCOPE_FLAGS.join('|')})
      # Keys from the policy files are data: compared as text, offered quoted (never through compgen -W, which expands them).
      COMPREPLY=()
      compopt +o filenames 2>/dev/null
      local key
      while IFS= read -r key; do
        [[ "$key" == "$cur"* ]] && COMPREPLY+=( "$(printf '%q' "$key")" )
      done < <(${LIST_SCOPES})
      return ;;
  esac
  case "$command" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
}
complete -o filenames -F _autojoin_sync autojoin-sync
`;
}

function zshScript(tree: CompletionTree): string {
  const described = tree.commands.map((command) => `    '${command.name}:${quoted(command.summary).replaceAll(':', '\\:')}'`).join('\n');
  const cases = tree.commands.map((command) => `    ${command.name}) opts=(${flagsOf(tree, command)}) ;;`).join('\n');
  return `#compdef autojoin-sync
# autojoin-sync completion for zsh: add to ~/.zshrc (after compinit)
#   source <(autojoin-sync completion zsh)
_autojoin_sync() {
  local -a commands opts
  commands=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case \${words[CURRENT-1]} in
    ${SCOPE_FLAGS.join('|')})
      # Keys from the policy files are data: one a line, added as they are; compadd quotes each when it is inserted.
      local -a keys
      keys=( "\${(@f)$(${LIST_SCOPES})}" )
      keys=( "\${(@)keys:#}" )
      compadd -- "\${keys[@]}"
      return ;;
  esac
  case \${words[2]} in
${cases}
  esac
  if [[ \${words[CURRENT]} == -* ]]; then
    compadd -- $opts
  else
    _files
  fi
}
compdef _autojoin_sync autojoin-sync
`;
}

function fishScript(tree: CompletionTree): string {
  const lines = ['# autojoin-sync completion for fish: autojoin-sync completion fish > ~/.config/fish/completions/autojoin-sync.fish'];
  lines.push('complete -c autojoin-sync -f');
  for (const command of tree.commands) {
    lines.push(`complete -c autojoin-sync -n __fish_use_subcommand -a ${command.name} -d '${quoted(command.summary)}'`);
    for (const flag of command.flags) {
      const when = `-n '__fish_seen_subcommand_from ${command.name}' -l ${flag.slice(2)}`;
      const scopes = (SCOPE_FLAGS as readonly string[]).includes(flag) ? ` -x -a '(${LIST_SCOPES})'` : ' -F';
      lines.push(`complete -c autojoin-sync ${when}${scopes}`);
    }
  }
  for (const flag of tree.globalFlags) lines.push(`complete -c autojoin-sync -l ${flag.slice(2)}`);
  return `${lines.join('\n')}\n`;
}

/** Single-quoted shell text: a quote ends the string, so it becomes a typographic one. */
function quoted(text: string): string {
  return text.replaceAll("'", '’');
}
