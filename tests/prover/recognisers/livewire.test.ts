import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('livewire', {
  positive: [
    {
      name: 'public actions and update hooks of a component',
      files: {
        'app/Livewire/TeamMembers.php': `<?php
namespace App\\Livewire;
use Livewire\\Component;
class TeamMembers extends Component
{
    public int $teamId;
    public function mount(int $teamId): void { $this->teamId = $teamId; }
    public function removeMember(int $userId): void { }
    public function updatedTeamId($value): void { }
    protected function purgeAll(): void { }
    public function render() { return view('x'); }
}
`,
      },
      entries: [
        { function: 'TeamMembers.removeMember', line: 8, kind: 'component_action' },
        { function: 'TeamMembers.updatedTeamId', line: 9, kind: 'property_hook' },
      ],
    },
  ],
  negative: [
    {
      name: 'a class named Component outside Livewire',
      files: { 'src/View/Card.php': '<?php\nclass Card extends Component\n{\n    public function render() { return 1; }\n    public function title() { return 1; }\n}\n' },
    },
    {
      name: 'a Livewire file whose class is not a component',
      files: { 'app/Livewire/Helpers.php': '<?php\nnamespace App\\Livewire;\nclass Helpers\n{\n    public function format() { return 1; }\n}\n' },
    },
  ],
});
