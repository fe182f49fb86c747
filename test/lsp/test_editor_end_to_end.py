"""skc-lsp through a real LSP client (pytest-lsp, on pygls): a kernel of a
CMake project built with skc_add_kernel_library is opened with a mistake
in it; the client reads the diagnostic, asks for the code actions, applies
the quick fix's WorkspaceEdit as an editor would, and sees the diagnostics
clear. test/lsp/EditorEndToEnd.cmake configures and builds the project and
runs this with the installed skc-lsp.

Environment: SKC_LSP (the server), SKC_E2E_PROJECT (the built project's
source directory; its build directory is build/ inside it, where skc-lsp
finds it as clangd would).
"""

import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

PROJECT = pathlib.Path(os.environ["SKC_E2E_PROJECT"])
KERNEL = PROJECT / "kernels" / "Neg.cpp"
SCHEMA = PROJECT / "ops.yaml"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[os.environ["SKC_LSP"]]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        root_uri=PROJECT.as_uri()))
    yield
    await lsp_client.shutdown_session()


async def diagnostics_of(client, uri, version, timeout=120):
    """The diagnostics the server publishes for version of uri."""

    async def wait():
        while True:
            params = await client.wait_for_notification(
                types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version == version:
                return params.diagnostics

    return await asyncio.wait_for(wait(), timeout)


def apply(text, edits):
    """Applies TextEdits (UTF-16 columns; this text is ASCII) to text."""
    lines = text.split("\n")

    def offset(p):
        return sum(len(l) + 1 for l in lines[:p.line]) + p.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start),
                       reverse=True):
        text = (text[:offset(edit.range.start)] + edit.new_text
                + text[offset(edit.range.end):])
    return text


@pytest.mark.asyncio
async def test_quick_fix_clears_a_broken_kernel(client: LanguageClient):
    uri = KERNEL.as_uri()
    # The impl names a kernel the schema does not: neg_ou for neg_out.
    text = KERNEL.read_text().replace("SK_IMPL_FUNC(neg_out)",
                                      "SK_IMPL_FUNC(neg_ou)")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(
            uri=uri, language_id="cpp", version=1, text=text)))
    diagnostics = await diagnostics_of(client, uri, 1)
    assert [d.code for d in diagnostics] == ["err_kernel_unknown_suggest"]
    assert "did you mean 'neg_out'" in diagnostics[0].message

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=diagnostics)))
    assert len(actions) == 1
    action = actions[0]
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.title == "change 'neg_ou' to 'neg_out'"

    text = apply(text, action.edit.changes[uri])
    assert text == KERNEL.read_text()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri,
                                                            version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=text)]))
    assert list(await diagnostics_of(client, uri, 2)) == []


@pytest.mark.asyncio
async def test_hover_and_definition_cross_files(client: LanguageClient):
    uri = SCHEMA.as_uri()
    text = SCHEMA.read_text()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=text)))
    assert list(await diagnostics_of(client, uri, 1)) == []
    # `    CPU: neg_out`: the kernel, in the project's source.
    line = text.split("\n").index("    CPU: neg_out")
    where = types.Position(line=line, character=10)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=where))
    assert "SK_IMPL_FUNC(neg_out)(const Tensor &self, const Tensor &out)" \
        in hover.contents.value
    # The sources that are not open are indexed in the background: ask
    # until the definition is known, as a user would.
    for _ in range(1200):
        locations = await client.text_document_definition_async(
            types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=where))
        if locations:
            break
        await asyncio.sleep(0.1)
    assert [l.uri for l in locations] == [KERNEL.as_uri()]


@pytest.mark.asyncio
async def test_a_lost_build_directory_is_said_and_survived(
        client: LanguageClient):
    uri = KERNEL.as_uri()
    text = KERNEL.read_text()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(
            uri=uri, language_id="cpp", version=1, text=text)))
    assert list(await diagnostics_of(client, uri, 1)) == []
    build = PROJECT / "build"
    moved = PROJECT / "build.moved"
    build.rename(moved)
    try:
        broken = text.replace("SK_IMPL_FUNC(neg_out)", "SK_IMPL_FUNC(neg_ou)")
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri,
                                                                version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(
                text=broken)]))
        # Still checked, with what the server knew of the project.
        diagnostics = await diagnostics_of(client, uri, 2)
        assert [d.code for d in diagnostics] == ["err_kernel_unknown_suggest"]
        assert any("is gone" in m.message and
                   m.type == types.MessageType.Warning
                   for m in client.messages), client.messages
    finally:
        moved.rename(build)
