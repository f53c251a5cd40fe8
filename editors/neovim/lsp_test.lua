-- End-to-end test of `jasset lsp` through Neovim's built-in LSP client, run headless:
--
--   JASSET=path/to/jasset JASSET_FILE=path/to/entity.jasset \
--     nvim --headless --clean -u NONE -c "luafile editors/neovim/lsp_test.lua"
--
-- JASSET_FILE is an entity file of a project (a copy: the buffer is edited, never
-- written) with the key `Health` misspelt `Helth`. The script loads the guide's snippet
-- (jasset.lua, beside it) and opens the file, which starts the server on it; it waits
-- for the misspelt key's diagnostic, asks for a hover and for completion, applies the
-- did-you-mean code action, and checks the buffer and that the diagnostic is gone. It exits with 0 when every step passed, 1 at the first that did
-- not (its reason on stderr).

local TIMEOUT = 60000

local function fail(message)
  io.stderr:write('lsp_test: FAILED: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

local function say(message)
  io.stderr:write('lsp_test: ' .. message .. '\n')
end

-- The result of the one server's answer to `method` with `params`.
local function request(bufnr, method, params)
  local answers, err = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT)
  if not answers then
    fail(method .. ': no answer (' .. tostring(err) .. ')')
  end
  for _, answer in pairs(answers) do
    if answer.error then
      fail(method .. ': ' .. vim.inspect(answer.error))
    end
    return answer.result
  end
  fail(method .. ': an empty answer')
end

local function main()
  local jasset, file = os.getenv('JASSET'), os.getenv('JASSET_FILE')
  if not jasset or not file then
    fail('JASSET and JASSET_FILE must be set')
  end
  -- The snippet the guide gives, next to this script, starts the server.
  vim.g.jasset_command = jasset
  local here = debug.getinfo(1, 'S').source:sub(2)
  dofile(vim.fn.fnamemodify(here, ':p:h') .. '/jasset.lua')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].filetype ~= 'jasset' then
    fail('the filetype is ' .. vim.inspect(vim.bo[bufnr].filetype))
  end

  -- The diagnostic of the misspelt key, with its did-you-mean.
  local line = vim.fn.search('^Helth') - 1
  if line < 0 then
    fail('the file has no `Helth` line')
  end
  local found = vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  if not found then
    fail('no diagnostic came')
  end
  local diagnostic = vim.diagnostic.get(bufnr)[1]
  if diagnostic.lnum ~= line or not diagnostic.message:find('did you mean `Health`?', 1, true) then
    fail('unexpected diagnostic: ' .. vim.inspect(diagnostic))
  end
  say('diagnostic: ' .. diagnostic.message)

  -- Hover on the template line: the template's kind and chain.
  local template = vim.fn.search('template:', 'w') - 1
  local uri = vim.uri_from_bufnr(bufnr)
  local hover = request(bufnr, 'textDocument/hover', {
    textDocument = { uri = uri },
    position = { line = template, character = 14 },
  })
  local shown = hover and hover.contents and hover.contents.value or ''
  if not shown:find('kind `Inert`', 1, true) then
    fail('unexpected hover: ' .. vim.inspect(hover))
  end
  say('hover: ' .. shown:gsub('\n', ' '))

  -- Completion on a new line: the keys the file does not set.
  local last = vim.api.nvim_buf_line_count(bufnr)
  vim.api.nvim_buf_set_lines(bufnr, last, last, false, { '' })
  local items = request(bufnr, 'textDocument/completion', {
    textDocument = { uri = uri },
    position = { line = last, character = 0 },
  })
  items = items and (items.items or items) or {}
  local labels = {}
  for _, item in ipairs(items) do
    labels[item.label] = true
  end
  if not labels['Mass'] or labels['Scale'] then
    fail('unexpected completion: ' .. vim.inspect(vim.tbl_keys(labels)))
  end
  say('completion: ' .. #items .. ' keys')
  vim.api.nvim_buf_set_lines(bufnr, last, last + 1, false, {})

  -- The did-you-mean code action, applied to the buffer.
  local actions = request(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
    context = { diagnostics = {} },
  })
  local fix
  for _, action in ipairs(actions or {}) do
    if action.title == 'Change to `Health`' then
      fix = action
    end
  end
  if not fix then
    fail('no did-you-mean action in ' .. vim.inspect(actions))
  end
  vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
  if text ~= 'Health: 50.0' then
    fail('after the fix, line ' .. (line + 1) .. ' is ' .. vim.inspect(text))
  end
  say('fixed: ' .. text)

  -- The change reaches the server, whose diagnostics are now empty.
  local cleared = vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) == 0
  end, 50)
  if not cleared then
    fail('the diagnostic stayed: ' .. vim.inspect(vim.diagnostic.get(bufnr)))
  end
  say('passed')
  vim.cmd('qall!')
end

local ok, err = pcall(main)
if not ok then
  fail(tostring(err))
end
