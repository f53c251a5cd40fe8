// The client of `jasset lsp` for `.jasset` files: it starts the server (the tool named
// by the `jasset.path` setting) on stdio when the first `.jasset` file opens.
import { workspace, ExtensionContext } from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export function activate(context: ExtensionContext): Promise<void> {
  const command = workspace.getConfiguration("jasset").get<string>("path", "jasset");
  const server: ServerOptions = { command, args: ["lsp"] };
  const options: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "jasset" }],
  };
  client = new LanguageClient("jasset", "jasset lsp", server, options);
  context.subscriptions.push(client);
  return client.start();
}

export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}
